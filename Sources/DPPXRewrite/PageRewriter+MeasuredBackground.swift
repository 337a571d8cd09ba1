import DPPXCore

extension PageRewriter {
    /// What a style rule painting site images holds, gathered from its declarations: what
    /// recognises the `@media` blocks an earlier run wrote after it, and the blocks it needs now.
    struct MeasuredRule {
        /// Every `url()` of its backgrounds as written, and the site images among them.
        var urls: [String] = []
        var references: [ImageReference] = []
        /// The `@media` blocks to follow the rule, with the line breaks before them, per
        /// declaration in the rule's order: a declaration nested in the same conditions
        /// (`CSSStyleRule.nesting`, normalized) wins over an earlier one, and so do its blocks.
        var blocks: [(nested: [String], text: String)] = []

        /// `text` as the blocks of the declaration nested in `nested`, after every earlier one's.
        mutating func setBlocks(_ text: String, nested: [String]) {
            let key = nested.map(CSSStyleRule.normalizedCondition)
            blocks.removeAll { $0.nested == key }
            blocks.append((key, text))
        }
    }

    /// The `@media` blocks that give `rule`'s fluid layers (`fluid`, by layer index) the files
    /// their measured painted widths need (`BackgroundRanges`; an `auto` layer's descriptors
    /// keep the size it is painted at), one block a range: the rule's own
    /// selector, and a `background-image` with the whole layer list of `declaration` as
    /// written, each measured fluid image made the range's `image-set()` and each density image
    /// its own (`sets`). Written after the rule's `}`, in the file's line breaks and the
    /// declaration's indentation. A declaration nested in the rule's `@media` or `@supports`
    /// blocks (`nested`, their preludes as written) gets the layers measured with those
    /// conditions, and its blocks are written in the same conditions: after the rule, they win
    /// exactly where the declaration did. Of several declarations in the same conditions, only
    /// the one the browser kept is measured (its layers' image functions: a vendor stack's
    /// unprefixed `linear-gradient(top, ...)` is invalid, and blocks copying it would be
    /// dropped too). Nil when no fluid layer was measured; `measured` gets the layer indexes
    /// that were.
    func mediaBlocks(for rule: CSSStyleRule, declaration: CSSDeclaration, nested: [String], layers: BackgroundLayers,
                     fluid: [(index: Int, reference: ImageReference)], sets: [Int: String], sheet: String, in bytes: [UInt8],
                     quote: Character, measured: inout Set<Int>) -> String? {
        guard let layout = options.layout else { return nil }
        let selector = CSSStyleRule.normalized(rule.selector)
        let conditions = nested.map(CSSStyleRule.normalizedCondition)
        // Of a vendor stack, the declaration the browser kept: its layers' image functions.
        let images = layers.imageFunctions
        let backgrounds = layout.pages.values.flatMap(\.backgrounds).filter {
            $0.sheet == sheet && $0.selector.map(CSSStyleRule.normalized) == selector
                && ($0.nested ?? []).map(CSSStyleRule.normalizedCondition) == conditions && ($0.images.map { $0 == images } ?? true)
        }
        var measuredLayers: [(index: Int, reference: ImageReference, layer: BackgroundRanges.Layer)] = []
        for (index, reference) in fluid {
            let url = "/" + reference.entry.image.path
            let painting = backgrounds.filter { $0.url == url }
            let samples = BackgroundRanges.widest(of: painting.map(\.boxSamples))
            guard !samples.isEmpty else { continue }
            // Where an element paints it at its natural size, which the descriptors then keep:
            // the master's CSS width (its width over its density).
            let natural = BackgroundRanges.widest(of: painting.filter { BackgroundSize(computed: $0.size)?.isNatural == true }.map(\.boxSamples))
            let layer = BackgroundRanges.Layer(samples: samples, fileWidths: reference.primary.map(\.width),
                                               natural: natural.isEmpty ? nil : .init(width: Double(reference.entry.image.width), samples: natural))
            measuredLayers.append((index, reference, layer))
        }
        guard !measuredLayers.isEmpty else { return nil }
        measured = Set(measuredLayers.map(\.index))
        let important = declaration.value.lowercased().replacingOccurrences(of: " ", with: "").hasSuffix("!important")
        let lineBreak = Self.lineBreak(in: bytes)
        let ruleIndentation = rule.indentation ?? ""
        // One unit of indentation per block the declaration is in (the rule's, and each nested one).
        let unit: String? = declaration.indentation.map { inner in
            let extra = inner.hasPrefix(ruleIndentation) ? inner.dropFirst(ruleIndentation.count) : ""
            return !extra.isEmpty && extra.count % (nested.count + 1) == 0 ? String(extra.prefix(extra.count / (nested.count + 1))) : "  "
        }
        let outer = ruleIndentation + String(repeating: unit ?? "", count: nested.count)
        var text = ""
        for range in BackgroundRanges(layers: measuredLayers.map(\.layer)).ranges {
            var images = sets
            for (position, layer) in measuredLayers.enumerated() where !range.candidates[position].isEmpty {
                images[layer.index] = Self.imageSet(layer.reference, range: range.candidates[position], quote: quote)
            }
            guard measuredLayers.indices.contains(where: { !range.candidates[$0].isEmpty }) else { continue }
            let value = "background-image: " + layers.backgroundImage { images[$0] } + (important ? " !important" : "") + ";"
            if let unit {
                text += lineBreak + outer + "@media \(range.mediaQuery) {" + lineBreak + outer + unit + rule.selector + " {"
                    + lineBreak + outer + unit + unit + value + lineBreak + outer + unit + "}" + lineBreak + outer + "}"
            } else {
                text += lineBreak + outer + "@media \(range.mediaQuery) { \(rule.selector) { \(value) } }"
            }
        }
        guard !text.isEmpty else { return nil }
        for (depth, prelude) in nested.enumerated().reversed() {
            let indentation = ruleIndentation + String(repeating: unit ?? "", count: depth)
            text = lineBreak + indentation + prelude + " {" + text + lineBreak + indentation + "}"
        }
        return text
    }

    /// Whether the layout shows the browser dropped `layers`' declaration for another of `rule`
    /// in the same conditions (`nested`): a layer of the rule measured there with other image
    /// functions (a vendor stack's invalid unprefixed gradient). Its images are then not
    /// reported as unmeasured: the declaration kept has the blocks.
    func isDropped(_ layers: BackgroundLayers, in rule: CSSStyleRule, nested: [String], sheet: String) -> Bool {
        guard let layout = options.layout else { return false }
        let selector = CSSStyleRule.normalized(rule.selector)
        let conditions = nested.map(CSSStyleRule.normalizedCondition)
        let images = layers.imageFunctions
        return layout.pages.values.contains { page in
            page.backgrounds.contains {
                $0.sheet == sheet && $0.selector.map(CSSStyleRule.normalized) == selector
                    && ($0.nested ?? []).map(CSSStyleRule.normalizedCondition) == conditions && $0.images.map { $0 != images } ?? false
            }
        }
    }

    /// `image-set(url("hero-1440w.avif") type("image/avif") 1.125x, ..., url("hero-1440w.jpg") 1.125x, url("hero.jpg") 1.875x)`:
    /// one range's files of a fluid image, extra formats first (a format that lacks a width leaves
    /// it to the master's format).
    static func imageSet(_ reference: ImageReference, range candidates: [BackgroundRanges.Candidate], quote: Character) -> String {
        var options: [String] = []
        for (format, files) in reference.candidates.extra {
            for candidate in candidates {
                guard let file = files.first(where: { $0.width == candidate.width && $0.format == format }) else { continue }
                options.append("\(URLEncoding.cssURL(file.url, quote: quote)) type(\(URLEncoding.cssString(format.mediaType, quote: quote))) \(candidate.density)x")
            }
        }
        for candidate in candidates {
            guard let file = reference.primary.first(where: { $0.width == candidate.width }) else { continue }
            options.append("\(URLEncoding.cssURL(reference.url(of: file), quote: quote)) \(candidate.density)x")
        }
        return "image-set(" + options.joined(separator: ", ") + ")"
    }

    /// The `@media` blocks an earlier run wrote right after `rule` (with the whitespace before
    /// them), as an empty range at the rule's end when there are none. One is dppx's when it
    /// holds only rules of the same selector with only a `background-image` of an
    /// `image-set()` whose every URL is one the rule wrote or a file of its images
    /// (`ImageFileNames`: as written before or since a rebuild), in `@media` blocks, those of a
    /// nested declaration also in its `@media` or `@supports` blocks.
    func writtenBlocks(after rule: CSSStyleRule, in bytes: [UInt8], holding measured: MeasuredRule, documentPath: String?) -> Range<Int> {
        let selector = CSSStyleRule.normalized(rule.selector)
        // Whether a block's content holds only such rules, in `@media` or `@supports` blocks.
        func holdsOnlyWritten(_ inner: [UInt8]) -> Bool {
            let rules = CSSStyleRule.all(in: inner, startsLine: false)
            guard !rules.isEmpty else { return false }
            var gaps: [Range<Int>] = []
            var previous = 0
            for only in rules {
                guard CSSStyleRule.normalized(only.selector) == selector, only.range.lowerBound >= previous else { return false }
                let declarations = CSSDeclaration.all(in: Array(inner[only.body]), startsLine: false, isDeclarationList: true)
                guard declarations.count == 1, let declaration = declarations.first, declaration.property == "background-image",
                      declaration.value.lowercased().contains("image-set("),
                      declaration.urls.allSatisfy({ url in
                          measured.urls.contains(url) || measured.references.contains { $0.owns([url], pagePath: documentPath, baseURL: options.baseURL) }
                      }) else { return false }
                gaps.append(previous..<only.range.lowerBound)
                previous = only.range.upperBound
            }
            gaps.append(previous..<inner.count)
            // Between the rules: only the blocks' preludes, braces and whitespace.
            return gaps.allSatisfy { gap in
                var segment: [UInt8] = []
                for byte in inner[gap] {
                    if byte == UInt8(ascii: "{") {
                        guard Self.isConditionPrelude(segment) else { return false }
                        segment = []
                    } else if byte == UInt8(ascii: "}") {
                        guard segment.allSatisfy(CSSDeclaration.isSpace) else { return false }
                        segment = []
                    } else {
                        segment.append(byte)
                    }
                }
                return segment.allSatisfy(CSSDeclaration.isSpace)
            }
        }
        var end = rule.range.upperBound
        while true {
            var start = end
            while start < bytes.count, CSSDeclaration.isSpace(bytes[start]) { start += 1 }
            guard let open = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "}") }),
                  bytes[open] == UInt8(ascii: "{"), Self.isConditionPrelude(bytes[start..<open]) else { break }
            let close = CSSStyleRule.blockEnd(bytes, openedAt: open)
            guard close > open + 1, bytes[close - 1] == UInt8(ascii: "}"), holdsOnlyWritten(Array(bytes[(open + 1)..<(close - 1)])) else { break }
            end = close
        }
        return rule.range.upperBound..<end
    }

    /// Whether `prelude` (with the whitespace around it) is an `@media` or `@supports` one.
    private static func isConditionPrelude(_ prelude: some Collection<UInt8>) -> Bool {
        let text = String(decoding: prelude, as: UTF8.self).trimmingASCIISpace().lowercased()
        return text.hasPrefix("@media") || text.hasPrefix("@supports")
    }
}
