import Foundation

/// A URL written in a page or stylesheet, read as a path under the site's root.
///
/// `photo.jpg` and `../img/photo.jpg` are relative to the page, `/img/photo.jpg` to the root;
/// a URL under `--base-url` (`https://cdn.example.com/`) stands for the root too. Query
/// strings and fragments are set aside; other origins, `data:` URLs and paths above the root
/// are not the site's files.
struct ImageURL: Sendable {
    /// The file's path relative to the root, percent-decoded, without `.` or `..`.
    let path: String
    /// The URL as written up to its file name (`../img/`, `https://cdn.example.com/img/`, `""`):
    /// sibling files are written with the same prefix, so they resolve the way the page's does.
    let folderPrefix: String

    /// Reads `written` (an attribute's or `url()`'s value) in the page at `pagePath` (relative to
    /// the root: its folder is where relative URLs start; see `documentPath`); nil when it does
    /// not name a file of the site. A nil `pagePath` is a page whose `<base href>` is on
    /// another origin: only URLs under `baseURL` are the site's.
    init?(_ written: String, pagePath: String?, baseURL: String?) {
        let text = written.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        var rest = Substring(text)
        var fromRoot = false
        if let baseURL, !baseURL.isEmpty {
            let base = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
            if text.hasPrefix(base) {
                rest = text.dropFirst(base.count)
                fromRoot = true
            }
        }
        if !fromRoot {
            guard pagePath != nil else { return nil }
            if rest.hasPrefix("//") || Self.hasScheme(rest) { return nil }
            if rest.hasPrefix("/") {
                fromRoot = true
                rest = rest.drop { $0 == "/" }
            }
        }
        let end = rest.firstIndex { $0 == "?" || $0 == "#" } ?? rest.endIndex
        let pathPart = rest[..<end]
        guard !pathPart.isEmpty, !pathPart.hasSuffix("/") else { return nil }
        let writtenPath = text[..<end]
        folderPrefix = writtenPath.lastIndex(of: "/").map { String(writtenPath[...$0]) } ?? ""
        guard let decoded = String(pathPart).removingPercentEncoding else { return nil }
        var segments: [Substring] = []
        if !fromRoot, let pagePath, let slash = pagePath.lastIndex(of: "/") {
            segments = pagePath[..<slash].split(separator: "/")
        }
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                guard !segments.isEmpty else { return nil }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        guard !segments.isEmpty else { return nil }
        path = segments.joined(separator: "/")
    }

    /// The path relative URLs of the page at `pagePath` resolve against, given its `<base href>`
    /// (`/blog/`, `../`, `https://cdn.example.com/blog/` under `baseURL`): a path in the folder
    /// the base names. `pagePath` itself without a base; nil when the base is on another
    /// origin or above the root, so the page's relative URLs are not the site's files.
    static func documentPath(pagePath: String, baseHref: String?, baseURL: String?) -> String? {
        guard let baseHref else { return pagePath }
        let href = baseHref.trimmingCharacters(in: .whitespacesAndNewlines)
        let end = href.firstIndex { $0 == "?" || $0 == "#" } ?? href.endIndex
        var path = String(href[..<end])
        guard !path.isEmpty else { return pagePath }
        // A folder (`/blog/`, `.`, `..`): a file in it stands for it.
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if last.isEmpty || last == "." || last == ".." { path += path.hasSuffix("/") ? "_" : "/_" }
        return ImageURL(path, pagePath: pagePath, baseURL: baseURL)?.path
    }

    /// `https:`, `data:`, `mailto:`... (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`).
    private static func hasScheme(_ text: Substring) -> Bool {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else { return false }
        let slash = text.firstIndex(of: "/") ?? text.endIndex
        guard colon < slash else { return false }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
