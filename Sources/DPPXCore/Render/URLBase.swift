/// Where the image URLs in generated CSS and HTML point.
///
/// Either relative, from the folder of the file being written to the folder the variants are
/// in (so the output works wherever the site is deployed), or under an absolute base such as
/// a CDN (`--base-url`). Manifest paths are joined to it segment by segment, percent-encoded.
public struct URLBase: Hashable, Sendable {
    private enum Kind: Hashable, Sendable {
        case relative(String)
        case absolute(String)
    }

    private let kind: Kind

    /// URLs relative to the written file: `folder` is the path from that file's folder to the
    /// variants' folder, with `/` (`""` when they are the same folder, `..`, `../img`).
    public static func relative(_ folder: String) -> URLBase {
        var trimmed = folder
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "." { trimmed = "" }
        return URLBase(kind: .relative(trimmed))
    }

    /// URLs under `baseURL` (`https://cdn.example.com/img/`, `/static/img`); characters a URL
    /// cannot hold are percent-encoded, existing escapes are kept.
    public static func absolute(_ baseURL: String) -> URLBase {
        URLBase(kind: .absolute(URLEncoding.sanitizeBaseURL(baseURL)))
    }

    /// The URL of `path`, a manifest path relative to the variants' folder.
    public func url(for path: String) -> String {
        let encoded = URLEncoding.encodePath(path)
        switch kind {
        case .relative(let folder):
            return folder.isEmpty ? encoded : URLEncoding.encodePath(folder) + "/" + encoded
        case .absolute(let base):
            return base.hasSuffix("/") ? base + encoded : base + "/" + encoded
        }
    }
}
