import Foundation

/// The files of the site's own that a page or a stylesheet names, as paths relative to the
/// site's root: the images (`PageReferences`: `<img src>`, `srcset`, a `<picture>`'s
/// `<source srcset>`, and every `url()` of the page's `<style>` elements, its `style` attributes
/// or a stylesheet) and the stylesheets (`<link rel="stylesheet">`, `@import`), resolved as the
/// rewriter resolves URLs (relative to the page or its `<base href>`, `/` from the root; other
/// origins and `data:` URLs are not the site's). What `dppx init` reads to find where a site
/// keeps its images. Whether a named file exists, or is an image at all, is for the caller to see.
public struct FileReferences: Sendable, Equatable {
    /// Images named, each once, in the order `PageReferences` lists them.
    public private(set) var images: [String] = []
    /// Stylesheets named, in document order, each once.
    public private(set) var stylesheets: [String] = []

    /// What the HTML page `bytes`, at `path` relative to the root, names.
    public init(page bytes: [UInt8], path: String) {
        for reference in PageReferences.references(in: bytes, at: path, isHTML: true) { Self.append(reference.path, to: &images) }
        let page = HTMLPage(parsing: bytes)
        guard let document = ImageURL.documentPath(pagePath: path, baseHref: page.baseHref, baseURL: nil) else { return }
        for link in page.links {
            let rel = link.attribute("rel")?.value.lowercased().split(whereSeparator: \.isWhitespace) ?? []
            guard rel.contains("stylesheet"), let href = link.attribute("href"),
                  let url = ImageURL(href.value, pagePath: document, baseURL: nil) else { continue }
            Self.append(url.path, to: &stylesheets)
        }
        for sheet in page.styleSheets { addImports(Array(bytes[sheet]), in: document) }
    }

    /// What the stylesheet `bytes`, at `path` relative to the root, names: the `url()`s of its
    /// declarations as images, its `@import`s as stylesheets.
    public init(stylesheet bytes: [UInt8], path: String) {
        for reference in PageReferences.references(in: bytes, at: path, isHTML: false) { Self.append(reference.path, to: &images) }
        addImports(bytes, in: path)
    }

    /// `written` (an `<img>`'s `src` as the layout file records it) on the page at `page`, as a
    /// path relative to the site's root; nil when it is not a file of the site.
    public static func sitePath(of written: String, inPage page: String) -> String? {
        ImageURL(written, pagePath: page, baseURL: nil)?.path
    }

    private mutating func addImports(_ bytes: [UInt8], in document: String) {
        for imported in Self.imports(in: bytes) {
            if let url = ImageURL(imported, pagePath: document, baseURL: nil) { Self.append(url.path, to: &stylesheets) }
        }
    }

    /// The URLs of the `@import` rules of `bytes`: `@import url(a.css)`, `@import "a.css"`.
    /// Comments are skipped.
    static func imports(in bytes: [UInt8]) -> [String] {
        let keyword = Array("@import".utf8)
        var found: [String] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                index = end + 2
                continue
            }
            guard index + keyword.count <= bytes.count,
                  bytes[index..<(index + keyword.count)].map({ $0 | 0x20 }).elementsEqual(keyword.map { $0 | 0x20 }) else {
                index += 1
                continue
            }
            var start = index + keyword.count
            while start < bytes.count, CSSDeclaration.isSpace(bytes[start]) { start += 1 }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
            let prelude = String(decoding: bytes[start..<end], as: UTF8.self)
            if let url = CSSDeclaration.urls(in: prelude).first {
                found.append(url)
            } else if let quote = prelude.first, quote == "\"" || quote == "'",
                      let close = prelude.dropFirst().firstIndex(of: quote) {
                found.append(String(prelude[prelude.index(after: prelude.startIndex)..<close]))
            }
            index = end
        }
        return found
    }

    private static func append(_ path: String, to list: inout [String]) {
        if !list.contains(path) { list.append(path) }
    }
}
