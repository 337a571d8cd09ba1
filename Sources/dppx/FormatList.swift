import ArgumentParser
import DPPXCore

/// `--formats webp,avif`: extra encodings, typed at the command line.
struct FormatList: ExpressibleByArgument, Hashable {
    let formats: [ImageFormat]

    init?(argument: String) {
        guard let formats = try? ImageFormat.parseList(argument) else { return nil }
        self.formats = formats
    }

    var defaultValueDescription: String { formats.map(\.rawValue).joined(separator: ",") }
}
