import DPPXCore
import DPPXFiles

/// Writes generated text files the way build tools need: only when the content changes (so
/// `make` timestamps stay meaningful and nothing downstream rebuilds for nothing), atomically,
/// and with a `--check` mode that says whether the file on disk is current.
public enum OutputFile {
    /// Why a file on disk is not what would be written.
    public enum Staleness: Hashable, Sendable, CustomStringConvertible {
        case missing
        /// The first line (1-based) that differs.
        case differs(line: Int)

        public var description: String {
            switch self {
            case .missing: "does not exist"
            case .differs(let line): "differs from what would be written, from line \(line) on"
            }
        }
    }

    /// Writes `text` to `path` unless the file already holds exactly it. Returns whether it wrote.
    @discardableResult
    public static func write(_ text: String, to path: String) throws(FileError) -> Bool {
        try AtomicFile.writeIfChanged(Array(text.utf8), to: path)
    }

    /// Nil when `path` holds exactly `text`; otherwise how it is stale.
    public static func staleness(of path: String, expected text: String) -> Staleness? {
        guard let bytes = try? AtomicFile.read(path) else { return .missing }
        let expected = Array(text.utf8)
        guard bytes != expected else { return nil }
        var line = 1
        for (actual, wanted) in zip(bytes, expected) {
            if actual != wanted { return .differs(line: line) }
            if actual == UInt8(ascii: "\n") { line += 1 }
        }
        return .differs(line: line)
    }
}
