import Foundation

/// The rules that keep a request path inside ROOT and out of hidden files, as a pure function
/// of the raw (still percent-encoded) path, applied before the path becomes a file name.
///
/// - 400: invalid percent-encoding, an encoded `/` or `\` (`%2f`, `%5c`), a NUL byte, a `.`
///   segment, or `..` anywhere, written plainly or encoded (`%2e%2e`).
/// - 404: a hidden segment (`.git`, `.dppx-cache.json`, a build's temporary files), except
///   `/.well-known/`.
/// The containment part (no `.` or `..` component, no NUL) is `PathContainment.escape`, the rule
/// the build applies to the paths it writes; symbolic links that leave ROOT or lead to a hidden
/// file are refused by `RootedFileSystem`, through `PathContainment` too.
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
        // Empty components are harmless here: `//a` reads `a`.
        switch PathContainment.escape(in: path.drop { $0 == "/" }, allowingEmptyComponents: true) {
        case .nul?: return .badRequest("NUL bytes are not allowed in the path")
        case .dotComponent?, .absolute?, .emptyComponent?: return .badRequest("'.' and '..' are not allowed in the path")
        case nil: break
        }
        // Stricter than containment: `..` anywhere, inside a name too (`a..b`).
        if path.contains("..") { return .badRequest("'.' and '..' are not allowed in the path") }
        return namesHiddenFile(path) ? .hidden : .allowed(path)
    }

    /// Whether a decoded path relative to ROOT (a request's, or a link's real target) has a
    /// hidden segment other than `.well-known`.
    static func namesHiddenFile(_ path: some StringProtocol) -> Bool {
        var rest = Substring(path)
        while !rest.isEmpty {
            let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let segment = rest[..<end]
            if segment.utf8.first == UInt8(ascii: "."), segment != ".well-known" { return true }
            rest = end == rest.endIndex ? "" : rest[rest.utf8.index(after: end)...]
        }
        return false
    }
}
