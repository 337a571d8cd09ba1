/// Which widths a fluid image is written at: the ones the user listed (`--widths 480,960`,
/// `widths = [480, 960]`), or `auto`, the ladder dppx computes from the master (see
/// `WidthLadder`).
public enum WidthRequest: Hashable, Sendable, Codable, CustomStringConvertible {
    /// dppx's automatic ladder.
    case auto
    /// These widths in pixels, ascending, without repeats.
    case explicit([Int])

    /// The largest width accepted: far beyond any screen, small enough that sizes never overflow.
    public static let maximumWidth = 100_000

    /// Parses `auto` or a comma-separated list of widths in pixels (`480,960,1440`); the error
    /// names the bad entry.
    public init(parsing text: String) throws(WidthListError) {
        let trimmed = text.filter { $0 != " " }
        if trimmed.lowercased() == "auto" {
            self = .auto
            return
        }
        let parts = trimmed.split(separator: ",", omittingEmptySubsequences: false)
        var widths = Set<Int>()
        for part in parts {
            guard part.allSatisfy({ $0.isASCII && $0.isNumber }), part.count <= 6, let width = Int(part),
                  (1...Self.maximumWidth).contains(width) else { throw WidthListError(entry: String(part)) }
            widths.insert(width)
        }
        guard !widths.isEmpty else { throw WidthListError(entry: text) }
        self = .explicit(widths.sorted())
    }

    /// `auto` or `480,960`: the form `--widths` takes.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .explicit(let widths): widths.map(String.init).joined(separator: ",")
        }
    }
}

/// A `--widths` entry that is neither `auto` nor a width in pixels.
public struct WidthListError: Error, CustomStringConvertible, Equatable {
    public let entry: String
    public init(entry: String) { self.entry = entry }
    public var description: String {
        "expected 'auto' or widths in pixels between 1 and \(WidthRequest.maximumWidth) separated by commas (e.g. 480,960,1440), but got '\(entry)'"
    }
}
