import ArgumentParser
import DPPXCore

/// `--quality 78` or `--quality auto`; the range is checked with the other settings.
extension EncoderQuality: ExpressibleByArgument {
    public init?(argument: String) { self.init(parsing: argument) }

    public static var defaultCompletionKind: CompletionKind { .list(["auto"]) }
}
