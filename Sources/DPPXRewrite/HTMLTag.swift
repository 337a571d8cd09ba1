import CGumbo

/// A start tag (`<img>`, `<source>`, or any element with a `style`) as the HTML5 parser found
/// it: its attributes with where each sits in the page's bytes, so attributes can be changed or
/// added without touching anything else.
struct HTMLTag: Sendable {
    struct Attribute: Sendable {
        /// Lowercased, as HTML compares them.
        let name: String
        /// With character references decoded.
        let value: String
        /// The value as written, quotes included; nil for a bare attribute (`alt`).
        let writtenValue: Range<Int>?
        /// Where its name is written.
        let nameRange: Range<Int>
    }

    /// Where `<` is.
    let start: Int
    /// Just after the tag's `>`.
    let end: Int
    /// For an `<img>` in a `<picture>`: the picture's `<source>` tags; nil outside a picture.
    let pictureSources: [HTMLTag]?
    /// Where a new attribute goes: right after the last one (never inside `/>`).
    let insertionPoint: Int
    let attributes: [Attribute]

    func attribute(_ name: String) -> Attribute? { attributes.first { $0.name == name } }

    /// The `<source>` tags of the `<picture>` `node` is in; nil when its parent is no picture.
    static func sources(around node: UnsafeMutablePointer<GumboNode>, base: UnsafePointer<CChar>) -> [HTMLTag]? {
        guard let parent = node.pointee.parent, parent.pointee.type == GUMBO_NODE_ELEMENT,
              name(of: parent.pointee.v.element) == "picture" else { return nil }
        let children = parent.pointee.v.element.children
        var sources: [HTMLTag] = []
        for index in 0..<Int(children.length) {
            guard let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self),
                  child.pointee.type == GUMBO_NODE_ELEMENT, child.pointee.v.element.tag == GUMBO_TAG_SOURCE,
                  let source = HTMLTag(child.pointee.v.element, base: base, sources: nil) else { continue }
            sources.append(source)
        }
        return sources
    }

    /// The element's tag name, lowercased: gumbo names the tags it knows, and `<picture>`,
    /// newer than gumbo 0.10, is read from the source.
    static func name(of element: GumboElement) -> String {
        guard element.tag == GUMBO_TAG_UNKNOWN else { return String(cString: gumbo_normalized_tagname(element.tag)) }
        var piece = element.original_tag
        guard piece.data != nil, piece.length > 0 else { return "" }
        gumbo_tag_from_original_text(&piece)
        guard let data = piece.data else { return "" }
        return data.withMemoryRebound(to: UInt8.self, capacity: piece.length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: piece.length), as: UTF8.self).lowercased()
        }
    }

    init?(_ element: GumboElement, base: UnsafePointer<CChar>, sources: [HTMLTag]?) {
        guard let tagText = element.original_tag.data, element.original_tag.length > 0 else { return nil }
        start = tagText - base
        end = start + element.original_tag.length
        pictureSources = sources
        var insertion = start + 1 + Self.name(of: element).utf8.count  // after `<img`
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
                                        writtenValue: written, nameRange: nameStart..<nameEnd))
        }
        insertionPoint = insertion
        self.attributes = attributes
    }
}
