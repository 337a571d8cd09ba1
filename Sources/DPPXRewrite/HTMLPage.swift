import CGumbo
import CGumboGuard

/// What the rewriter changes in a page, as the HTML5 parser read it, each with where it sits in
/// the page's bytes: the `<img>` tags, the CSS of the `<style>` elements, and the `style`
/// attributes. Everything is found in one parse, in `<template>`, `<noscript>` and `<picture>`
/// too; what the parser makes up for a malformed page has no bytes in it and is not listed.
struct HTMLPage {
    /// Every `<img>` start tag written in the page, in document order.
    private(set) var images: [HTMLTag] = []
    /// The text of every HTML `<style>` element (CSS as written: a `<style>`'s text has no
    /// character references), in document order. SVG's `<style>`, parsed as markup, is not.
    private(set) var styleSheets: [Range<Int>] = []
    /// Every `style` attribute with a value, on any element, in document order.
    private(set) var styleAttributes: [HTMLTag.Attribute] = []
    /// Every HTML `<link>` tag written in the page, in document order (`rel` tells a
    /// stylesheet from an icon).
    private(set) var links: [HTMLTag] = []
    /// The `href` of the first `<base>` that has one: what the page's relative URLs resolve
    /// against instead of the page's own URL.
    private(set) var baseHref: String?
    private var baseStart = Int.max
    /// Why the page is not read: it opens an element deeper than `ElementNesting.maximumDepth`
    /// (the parser's time grows with the square of the depth), or its markup fails one of the
    /// parser's assertions (`CGumboGuard`: gumbo 0.10 would abort the process). Such a page lists
    /// nothing.
    private(set) var refusal: ElementNesting.Refusal?

    /// Parses `bytes` (UTF-8), unless the parser cannot be given them (`refusal`).
    init(parsing bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
            if let offset = ElementNesting.firstTooDeep(in: buffer) {
                refusal = .tooDeep(offset)
                return
            }
            base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text in
                var options = kGumboDefaultOptions
                // dppx reads no parse error: recording none keeps gumbo from copying the stack
                // of open elements for each one (a copy per level of a deeply nested page).
                options.max_errors = 0
                var aborted: Int32 = 0
                let output = cgumbo_parse_guarded(&options, text, buffer.count, &aborted)
                defer { cgumbo_destroy_guarded(&options, output) }
                guard let output else {
                    if aborted != 0 { refusal = .abortsTheParser }
                    return
                }
                collect(output.pointee.document, base: text, count: buffer.count)
            }
        }
        // The parser rebuilds misnested formatting elements (`<p><b style=...>bold<p>more</b>`)
        // as copies that keep the original's source position: each tag written is listed once.
        var seenImages = Set<Int>(), seenSheets = Set<Int>(), seenStyles = Set<Int>(), seenLinks = Set<Int>()
        images = images.sorted { $0.start < $1.start }.filter { seenImages.insert($0.start).inserted }
        links = links.sorted { $0.start < $1.start }.filter { seenLinks.insert($0.start).inserted }
        styleSheets = styleSheets.sorted { $0.lowerBound < $1.lowerBound }.filter { seenSheets.insert($0.lowerBound).inserted }
        styleAttributes = styleAttributes.sorted { ($0.writtenValue?.lowerBound ?? 0) < ($1.writtenValue?.lowerBound ?? 0) }
            .filter { seenStyles.insert($0.writtenValue?.lowerBound ?? -1).inserted }
    }

    /// Walks the tree from `root` with a stack of its own (a deeply nested page must not
    /// exhaust the thread's stack).
    private mutating func collect(_ root: UnsafeMutablePointer<GumboNode>?, base: UnsafePointer<CChar>, count: Int) {
        var pending: [UnsafeMutablePointer<GumboNode>] = root.map { [$0] } ?? []
        while let node = pending.popLast() {
            let children: GumboVector
            switch node.pointee.type {
            case GUMBO_NODE_DOCUMENT:
                children = node.pointee.v.document.children
            case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
                let element = node.pointee.v.element
                let isImage = element.tag == GUMBO_TAG_IMG && element.tag_namespace == GUMBO_NAMESPACE_HTML
                var attributes = element.attributes
                let isStyled = gumbo_get_attribute(&attributes, "style") != nil
                if isImage || isStyled,
                   let tag = HTMLTag(element, base: base, sources: isImage ? HTMLTag.sources(around: node, base: base) : nil) {
                    if isImage { images.append(tag) }
                    if let style = tag.attribute("style"), style.writtenValue != nil { styleAttributes.append(style) }
                }
                if element.tag == GUMBO_TAG_BASE, element.tag_namespace == GUMBO_NAMESPACE_HTML,
                   let tag = HTMLTag(element, base: base, sources: nil), tag.start < baseStart, let href = tag.attribute("href") {
                    baseStart = tag.start
                    baseHref = href.value
                }
                if element.tag == GUMBO_TAG_LINK, element.tag_namespace == GUMBO_NAMESPACE_HTML,
                   let tag = HTMLTag(element, base: base, sources: nil) {
                    links.append(tag)
                }
                if element.tag == GUMBO_TAG_STYLE, element.tag_namespace == GUMBO_NAMESPACE_HTML,
                   let sheet = Self.text(of: element, base: base, count: count) {
                    styleSheets.append(sheet)
                }
                children = element.children
            default:
                continue
            }
            for index in 0..<Int(children.length) {
                if let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self) { pending.append(child) }
            }
        }
    }

    /// The bytes between a `<style>` start tag and its end tag (or the end of the page, where
    /// an unclosed one runs to); nil for an element the parser made up.
    private static func text(of element: GumboElement, base: UnsafePointer<CChar>, count: Int) -> Range<Int>? {
        guard let start = element.original_tag.data, element.original_tag.length > 0 else { return nil }
        let lower = start - base + element.original_tag.length
        var upper = count
        if let end = element.original_end_tag.data, element.original_end_tag.length > 0 { upper = end - base }
        return lower <= upper && upper <= count ? lower..<upper : nil
    }
}
