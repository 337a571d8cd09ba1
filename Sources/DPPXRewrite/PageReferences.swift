import Foundation

/// The site's files a page or stylesheet names, as root-relative paths: what must be on disk
/// for the page to show its images. A build removes a file it no longer lists only once no
/// rewritten page or stylesheet names it (`RetiredFiles`), and `dppx rewrite --check` names the
/// files a page names that are missing.
///
/// Read from an HTML page: every `<img>`'s `src` and `srcset`, the `srcset` of the `<source>`s
/// of its `<picture>`, and each `url()` of its `<style>` elements and `style` attributes (the
/// `image-set()`s dppx writes are `url()`s); from a stylesheet, each `url()` of its
/// declarations (in `@media` blocks too). URLs of other origins, `data:` URLs and paths above
/// the root are not the site's files and are not listed.
public enum PageReferences {
    /// One file named, with the line it is named on (1-based).
    public struct Reference: Hashable, Sendable {
        public let path: String
        public let line: Int
    }

    /// The site's files `bytes` names: an HTML page when `isHTML`, else a stylesheet, at
    /// `pagePath` relative to the root, with `baseURL` the site's own absolute address (nil: none).
    public static func references(in bytes: [UInt8], at pagePath: String, isHTML: Bool, baseURL: String? = nil) -> [Reference] {
        var found: [Reference] = []
        func add(_ written: String, documentPath: String?, offset: Int) {
            guard let url = ImageURL(written, pagePath: documentPath, baseURL: baseURL) else { return }
            found.append(Reference(path: url.path, line: RewriteFinding.line(of: offset, in: bytes)))
        }
        guard isHTML else {
            for declaration in CSSDeclaration.all(in: bytes) {
                for url in declaration.urls { add(url, documentPath: pagePath, offset: declaration.range.lowerBound) }
            }
            return found
        }
        let page = HTMLPage(parsing: bytes)
        let documentPath = ImageURL.documentPath(pagePath: pagePath, baseHref: page.baseHref, baseURL: baseURL)
        for tag in page.images {
            if let src = tag.attribute("src") { add(src.value, documentPath: documentPath, offset: tag.start) }
            for source in [tag] + (tag.pictureSources ?? []) {
                guard let srcset = source.attribute("srcset") else { continue }
                for candidate in PageRewriter.srcsetCandidates(srcset.value) {
                    add(candidate.url, documentPath: documentPath, offset: source.start)
                }
            }
        }
        for sheet in page.styleSheets {
            for declaration in CSSDeclaration.all(in: Array(bytes[sheet]), startsLine: false) {
                for url in declaration.urls { add(url, documentPath: documentPath, offset: sheet.lowerBound + declaration.range.lowerBound) }
            }
        }
        for attribute in page.styleAttributes {
            let offset = attribute.writtenValue?.lowerBound ?? 0
            for declaration in CSSDeclaration.all(in: Array(attribute.value.utf8), startsLine: false, isDeclarationList: true) {
                for url in declaration.urls { add(url, documentPath: documentPath, offset: offset) }
            }
        }
        return found
    }
}
