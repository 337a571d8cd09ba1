import CGumbo

/// An `<img>` start tag as the HTML5 parser found it: its attributes with where each sits in
/// the page's bytes, so attributes can be changed or added without touching anything else.
struct HTMLTag: Sendable {
    struct Attribute: Sendable {
        /// Lowercased, as HTML compares them.
        let name: String
        /// With character references decoded.
        let value: String
        /// The value as written, quotes included; nil for a bare attribute (`alt`).
        let writtenValue: Range<Int>?
    }

    /// Where `<` is.
    let start: Int
    /// Where a new attribute goes: right after the last one (never inside `/>`).
    let insertionPoint: Int
    let attributes: [Attribute]

    func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }

    /// Every `<img>` start tag written in `bytes` (UTF-8), in document order: in `<template>`,
    /// `<noscript>` and `<picture>` too. Images the parser makes up for a malformed page have
    /// no tag in the source and are not listed.
    static func images(in bytes: [UInt8]) -> [HTMLTag] {
        bytes.withUnsafeBufferPointer { buffer -> [HTMLTag] in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return [] }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { text -> [HTMLTag] in
                var options = kGumboDefaultOptions
                guard let output = gumbo_parse_with_options(&options, text, buffer.count) else { return [] }
                defer { gumbo_destroy_output(&options, output) }
                var found: [HTMLTag] = []
                collect(output.pointee.document, base: text, into: &found)
                return found.sorted { $0.start < $1.start }
            }
        }
    }

    private static func collect(_ node: UnsafeMutablePointer<GumboNode>?, base: UnsafePointer<CChar>, into found: inout [HTMLTag]) {
        guard let node else { return }
        let children: GumboVector
        switch node.pointee.type {
        case GUMBO_NODE_DOCUMENT:
            children = node.pointee.v.document.children
        case GUMBO_NODE_ELEMENT, GUMBO_NODE_TEMPLATE:
            let element = node.pointee.v.element
            if element.tag == GUMBO_TAG_IMG, element.tag_namespace == GUMBO_NAMESPACE_HTML,
               let tag = HTMLTag(element, base: base) {
                found.append(tag)
            }
            children = element.children
        default:
            return
        }
        for index in 0..<Int(children.length) {
            collect(children.data[index]?.assumingMemoryBound(to: GumboNode.self), base: base, into: &found)
        }
    }

    private init?(_ element: GumboElement, base: UnsafePointer<CChar>) {
        guard let tagText = element.original_tag.data, element.original_tag.length > 0 else { return nil }
        start = tagText - base
        var insertion = start + 4  // after `<img`
        var attributes: [Attribute] = []
        for index in 0..<Int(element.attributes.length) {
            guard let raw = element.attributes.data[index] else { continue }
            let attribute = raw.assumingMemoryBound(to: GumboAttribute.self).pointee
            guard let nameText = attribute.original_name.data else { continue }
            let nameStart = nameText - base
            let nameEnd = nameStart + attribute.original_name.length
            var written: Range<Int>?
            if let valueText = attribute.original_value.data, valueText != nameText {
                let valueStart = valueText - base
                written = valueStart..<(valueStart + attribute.original_value.length)
            }
            insertion = max(insertion, written?.upperBound ?? nameEnd)
            attributes.append(Attribute(name: String(cString: attribute.name), value: String(cString: attribute.value),
                                        writtenValue: written))
        }
        insertionPoint = insertion
        self.attributes = attributes
    }
}
