/// The rules that keep a request path inside ROOT and out of hidden files, as a pure function
/// of the raw (still percent-encoded) path, applied before the path becomes a file name.
///
/// - 400: invalid percent-encoding, an encoded `/` or `\` (`%2f`, `%5c`), a NUL byte, a `.`
///   segment, or `..` anywhere, written plainly or encoded (`%2e%2e`).
/// - 404: a hidden segment (`.git`, `.dppx-cache.json`, a build's temporary files), except
///   `/.well-known/`.
/// Symbolic links that leave ROOT or lead to a hidden file are refused by `RootedFileSystem`.
public enum PathGuard {
    /// What to do with a path.
    public enum Verdict: Equatable, Sendable {
        /// Serve it; the decoded path.
        case allowed(String)
        case badRequest(String)
        case hidden

        public var isAllowed: Bool {
            if case .allowed = self { return true }
            return false
        }
    }

    public static func check(_ rawPath: String) -> Verdict {
        var path = rawPath
        if rawPath.utf8.contains(UInt8(ascii: "%")) {
            let lowered = rawPath.lowercased()
            if lowered.contains("%2f") || lowered.contains("%5c") {
                return .badRequest("encoded path separators are not allowed")
            }
            guard let decoded = rawPath.removingPercentEncoding else {
                return .badRequest("invalid percent-encoding in the path")
            }
            path = decoded
        }
        let verdict = path.utf8.withContiguousStorageIfAvailable(scan) ?? Array(path.utf8).withUnsafeBufferPointer(scan)
        return verdict ?? .allowed(path)
    }

    private static let wellKnown = Array(".well-known".utf8)

    /// Whether a decoded path relative to ROOT (a link's real target) has a hidden segment,
    /// by the same rule as a request's path.
    static func namesHiddenFile(_ relativePath: some StringProtocol) -> Bool {
        relativePath.split(separator: "/").contains { $0.hasPrefix(".") && $0 != ".well-known" }
    }

    /// One pass over the decoded path's bytes: nil when it may be served.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Verdict? {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        var hidden = false
        var segmentStart = 0
        for index in 0...bytes.count {
            let byte = index < bytes.count ? bytes[index] : slash
            if byte == 0 { return .badRequest("NUL bytes are not allowed in the path") }
            if byte == dot, index + 1 < bytes.count, bytes[index + 1] == dot {
                return .badRequest("'.' and '..' are not allowed in the path")
            }
            guard byte == slash else { continue }
            let length = index - segmentStart
            if length > 0, bytes[segmentStart] == dot {
                if length == 1 { return .badRequest("'.' and '..' are not allowed in the path") }
                if !(length == wellKnown.count && wellKnown.indices.allSatisfy({ bytes[segmentStart + $0] == wellKnown[$0] })) {
                    hidden = true
                }
            }
            segmentStart = index + 1
        }
        return hidden ? .hidden : nil
    }
}
