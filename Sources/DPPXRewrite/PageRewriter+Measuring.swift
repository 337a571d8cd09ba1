import DPPXCore

extension PageRewriter {
    /// What measuring needs of the HTML page `bytes` at `pagePath`: where each `<img` starts
    /// (the occurrence's name in the layout file), and the names of the attributes an earlier
    /// rewrite wrote that change how wide an image is drawn: a `srcset` dppx owns (on the
    /// `<img>` or a `<source>` of its `<picture>`) and the `sizes` beside it. With those turned
    /// off the page lays out as it did before any rewrite: a `sizes` only counts with a
    /// `w`-described `srcset`, so one written by hand is idle there too.
    public func measurementMarks(_ bytes: [UInt8], at pagePath: String) -> (imageTags: [Int], dppxAttributes: [Range<Int>], sources: [Int: String]) {
        let page = HTMLPage(parsing: bytes)
        let documentPath = ImageURL.documentPath(pagePath: pagePath, baseHref: page.baseHref, baseURL: options.baseURL)
        var disabled: [Range<Int>] = []
        for tag in page.images {
            guard let src = tag.attribute("src"),
                  let reference = ImageReference(src.value, pagePath: documentPath, images: images, baseURL: options.baseURL) else { continue }
            if let srcset = tag.attribute("srcset"), reference.owns(srcsetByDppx: srcset.value, pagePath: documentPath, baseURL: options.baseURL) {
                disabled.append(srcset.nameRange)
                if let sizes = tag.attribute("sizes") { disabled.append(sizes.nameRange) }
            }
            for source in tag.pictureSources ?? [] {
                guard let srcset = source.attribute("srcset"),
                      reference.owns(srcsetByDppx: srcset.value, pagePath: documentPath, baseURL: options.baseURL) else { continue }
                disabled.append(srcset.nameRange)
            }
        }
        let sources = Dictionary(page.images.compactMap { tag in tag.attribute("src").map { (tag.start, $0.value) } },
                                 uniquingKeysWith: { first, _ in first })
        return (page.images.map(\.start), disabled, sources)
    }

    /// The path below the root that `src`, written in the page at `pagePath`, names (`--base-url`
    /// URLs included); nil for other origins and `data:` URLs.
    public func imagePath(of src: String, onPage pagePath: String) -> String? {
        ImageURL(src, pagePath: pagePath, baseURL: options.baseURL)?.path
    }
}
