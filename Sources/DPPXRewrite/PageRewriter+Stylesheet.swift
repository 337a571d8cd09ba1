import DPPXCore
import Foundation

extension PageRewriter {
    /// The stylesheet `bytes`, at `path` relative to the root, rewritten: after each
    /// `background-image` or `background` declaration whose one `url()` is a density image, a
    /// `background-image: image-set(...)` with its densities (extra formats first, with
    /// `type()`). The original stays before it as the fallback of browsers that reject the
    /// new one; `image-set()` divides each file by its density, so the painted size is the
    /// 1x file's. Fluid images are reported: their size comes from the page.
    public func rewriteCSS(_ bytes: [UInt8], at path: String) -> RewriteResult {
        var edits = ByteEdits()
        var findings: [RewriteFinding] = []
        let rewritten = addImageSets(to: CSSSource(text: bytes), at: path, documentPath: path, into: &edits, findings: &findings) {
            RewriteFinding.line(of: $0, in: bytes)
        }
        return RewriteResult(bytes: edits.isEmpty ? bytes : edits.applied(to: bytes), findings: findings, imagesRewritten: rewritten)
    }

    /// The CSS inside the HTML page `bytes`, rewritten as a stylesheet is (`rewriteCSS`): the
    /// text of each `<style>` element, and the declarations of each `style` attribute. An
    /// attribute's additions are escaped for it (their strings in the quote it does not use); a
    /// value written with character references, or without quotes, is written again whole.
    /// URLs resolve against `documentPath` (the page's, or its `<base href>`'s).
    /// Returns the backgrounds given candidates.
    func rewriteStyles(of page: HTMLPage, in bytes: [UInt8], at path: String, documentPath: String?,
                       into edits: inout ByteEdits, findings: inout [RewriteFinding]) -> Int {
        var rewritten = 0
        for sheet in page.styleSheets {
            let source = CSSSource(text: Array(bytes[sheet]), offset: sheet.lowerBound, startsLine: false, escape: Self.escapeStyleText)
            rewritten += addImageSets(to: source, at: path, documentPath: documentPath, into: &edits, findings: &findings) {
                RewriteFinding.line(of: sheet.lowerBound + $0, in: bytes)
            }
        }
        for attribute in page.styleAttributes {
            guard let written = attribute.writtenValue, !written.isEmpty else { continue }
            let line = RewriteFinding.line(of: written.lowerBound, in: bytes)
            let quote = bytes[written.lowerBound]
            let isQuoted = (quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'")) && written.count >= 2
                && bytes[written.upperBound - 1] == quote
            let value = Array(attribute.value.utf8)
            let inner = isQuoted ? (written.lowerBound + 1)..<(written.upperBound - 1) : written
            // The attribute keeps its quote (an unquoted one gets double quotes); the CSS
            // strings added take the other one, so they need no escaping.
            let attributeQuote: Character = isQuoted && quote == UInt8(ascii: "'") ? "'" : "\""
            let cssQuote: Character = attributeQuote == "'" ? "\"" : "'"
            // The parser reads a CRLF in an attribute as LF: a value that differs from its
            // bytes only so is still written as it reads, and its CRLFs are kept.
            if isQuoted, Self.lineBreaksNormalized(bytes[inner]).elementsEqual(value) {
                // Written as it reads: the additions go in place, escaped for this attribute.
                let source = CSSSource(text: Array(bytes[inner]), offset: inner.lowerBound, startsLine: false, isDeclarationList: true,
                                       quote: cssQuote, escape: { Self.escapeAttribute($0, quote: attributeQuote) })
                rewritten += addImageSets(to: source, at: path, documentPath: documentPath, into: &edits, findings: &findings) { _ in line }
            } else {
                var local = ByteEdits()
                let source = CSSSource(text: value, startsLine: false, isDeclarationList: true, quote: cssQuote)
                rewritten += addImageSets(to: source, at: path, documentPath: documentPath, into: &local, findings: &findings) { _ in line }
                if !local.isEmpty {
                    let text = String(decoding: local.applied(to: value), as: UTF8.self)
                    edits.replace(written, with: String(attributeQuote) + Self.escapeAttribute(text, quote: attributeQuote) + String(attributeQuote))
                }
            }
        }
        return rewritten
    }

    /// Text added inside a `<style>` element: every `<` as the CSS escape `\3c `, the one
    /// character that can begin the element's end (`</style`): what is added never ends it,
    /// whatever its URLs' queries hold. (`URLEncoding.cssString` writes the strings so already;
    /// this holds for every other byte added, such as a selector copied into a `@media` block.)
    static func escapeStyleText(_ text: String) -> String {
        text.contains("<") ? text.replacingOccurrences(of: "<", with: "\\3c ") : text
    }

    /// The one place CSS gets its `image-set()`s, wherever it is written: the edits that give
    /// `source` them go into `edits` (at `source.offset`), and what is left alone into
    /// `findings`, on the line `line` gives for an offset in `source.text`. URLs resolve against
    /// `documentPath`. Returns the images given candidates (or whose candidates were kept up to
    /// date).
    ///
    /// After a `background` or `background-image` whose layers include a density image, a
    /// `background-image` with the whole layer list follows, only those images' layers made
    /// `image-set()`s (a gradient overlay above the photo stays). The `background-image` that
    /// already follows with an `image-set()` of those images' files (`ImageFileNames`: as an
    /// earlier run wrote it, before or since a rebuild) is updated in place, or removed when no
    /// image needs one any more: it is never left behind a new one, where it would win.
    ///
    /// A fluid image has no one size: where the layout measured the rule that paints it
    /// (`RewriteOptions.layout`), `@media` blocks follow the rule with the files its painted
    /// widths need (`mediaBlocks`), in the order of the declarations, those of a declaration
    /// nested in the rule's `@media` or `@supports` blocks in the same conditions; the blocks
    /// an earlier run wrote there are updated or removed in the same way. A `style` attribute cannot hold
    /// `@media`: its fluid images are reported.
    func addImageSets(to source: CSSSource, at path: String, documentPath: String?, into edits: inout ByteEdits,
                      findings: inout [RewriteFinding], line: (Int) -> Int) -> Int {
        let bytes = source.text
        var rewritten = 0
        let declarations = CSSDeclaration.all(in: bytes, startsLine: source.startsLine, isDeclarationList: source.isDeclarationList)
        let rules = source.isDeclarationList ? [] : CSSStyleRule.all(in: bytes, startsLine: source.startsLine)
        var measuredRules: [Int: MeasuredRule] = [:]
        func replace(_ range: Range<Int>, with text: String) {
            edits.replace((range.lowerBound + source.offset)..<(range.upperBound + source.offset), with: source.escape(text))
        }
        for (index, declaration) in declarations.enumerated() {
            guard declaration.property == "background" || declaration.property == "background-image",
                  !declaration.value.lowercased().contains("image-set(") else { continue }
            func report(_ message: String) {
                findings.append(RewriteFinding(file: path, line: line(declaration.range.lowerBound), message: message))
            }
            let urls = declaration.urls
            let references = urls.compactMap { ImageReference($0, pagePath: documentPath, images: images, baseURL: options.baseURL) }
            guard !references.isEmpty else { continue }
            let ruleIndex = rules.lastIndex { $0.body.contains(declaration.range.lowerBound) }
            if let ruleIndex {
                measuredRules[ruleIndex, default: MeasuredRule()].urls += urls
                measuredRules[ruleIndex, default: MeasuredRule()].references += references
            }
            guard let layers = BackgroundLayers(declaration.value) else {
                report("\(declaration.property) uses var(), env() or attr(), which may stand for any number of layers; left as it is")
                continue
            }
            var sets: [Int: String] = [:]
            var fluid: [(index: Int, reference: ImageReference)] = []
            for (layerIndex, layer) in layers.layers.enumerated() {
                guard let url = layer.url,
                      let reference = ImageReference(url, pagePath: documentPath, images: images, baseURL: options.baseURL) else { continue }
                if reference.entry.image.isFluid {
                    fluid.append((layerIndex, reference))
                    continue
                }
                guard reference.primary.count > 1 else { continue }
                sets[layerIndex] = Self.imageSet(reference, quote: source.quote)
            }
            if !fluid.isEmpty {
                var measured = Set<Int>()
                // The conditions it is nested in inside its rule; nil where dppx does not weigh it.
                let nested = ruleIndex.flatMap { rules[$0].nesting(of: declaration.range.lowerBound, in: bytes) }
                if let ruleIndex, let nested,
                   let blocks = mediaBlocks(for: rules[ruleIndex], declaration: declaration, nested: nested, layers: layers, fluid: fluid,
                                            sets: sets, sheet: path, in: bytes, quote: source.quote, measured: &measured) {
                    // The rule's last painting declaration in these conditions wins in it, and so its blocks.
                    measuredRules[ruleIndex]?.setBlocks(blocks, nested: nested)
                    rewritten += measured.count
                }
                // A declaration the browser dropped for another of the rule paints nothing.
                var dropped = false
                if measured.isEmpty, let ruleIndex, let nested { dropped = isDropped(layers, in: rules[ruleIndex], nested: nested, sheet: path) }
                for (index, reference) in fluid where !measured.contains(index) && !dropped {
                    if options.layout == nil {
                        report("url(\(reference.written)) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it")
                    } else if source.isDeclarationList {
                        report("url(\(reference.written)) is fluid, in a style attribute: it cannot hold the @media blocks its measured sizes need, so it is left as it is; move the background into a stylesheet rule")
                    } else {
                        report("url(\(reference.written)) is fluid and no measured page paints it by this rule (dppx measure): no image-set() is added")
                    }
                }
            }
            rewritten += sets.count
            let important = declaration.value.lowercased().replacingOccurrences(of: " ", with: "").hasSuffix("!important")
            let text = sets.isEmpty ? nil
                : "background-image: " + layers.backgroundImage { sets[$0] } + (important ? " !important" : "")
            // A following image-set() of these images' files is the one an earlier run wrote.
            if index + 1 < declarations.count {
                let next = declarations[index + 1]
                if next.property == "background-image", next.value.lowercased().contains("image-set("),
                   next.urls.allSatisfy({ url in urls.contains(url) || references.contains { $0.owns([url], pagePath: documentPath, baseURL: options.baseURL) } }),
                   !bytes[declaration.end..<next.range.lowerBound].contains(UInt8(ascii: "}")) {
                    if let text {
                        if String(decoding: bytes[next.range], as: UTF8.self) != text { replace(next.range, with: text) }
                    } else {
                        replace(declaration.end..<next.end, with: "")
                    }
                    continue
                }
            }
            guard let text else { continue }
            let separator = declaration.indentation.map { (Self.lineBreak(in: bytes)) + $0 } ?? " "
            if declaration.hasSemicolon {
                replace(declaration.end..<declaration.end, with: separator + text + ";")
            } else {
                replace(declaration.range.upperBound..<declaration.range.upperBound, with: ";" + separator + text)
            }
        }
        for (ruleIndex, measured) in measuredRules.sorted(by: { $0.key < $1.key }) {
            let written = writtenBlocks(after: rules[ruleIndex], in: bytes, holding: measured, documentPath: documentPath)
            let text = measured.blocks.map(\.text).joined()
            if String(decoding: bytes[written], as: UTF8.self) != text { replace(written, with: text) }
        }
        return rewritten
    }

    /// `image-set(url("hero.avif") type("image/avif") 1x, ..., url("hero.jpg") 1x, url("hero@2x.jpg") 2x)`,
    /// its strings in `quote`.
    static func imageSet(_ reference: ImageReference, quote: Character = "\"") -> String {
        var options: [String] = []
        for (format, candidates) in reference.candidates.extra {
            for candidate in candidates {
                options.append("\(URLEncoding.cssURL(candidate.url, quote: quote)) type(\(URLEncoding.cssString(format.mediaType, quote: quote))) \(candidate.density)x")
            }
        }
        for candidate in reference.primary {
            options.append("\(URLEncoding.cssURL(reference.url(of: candidate), quote: quote)) \(candidate.density)x")
        }
        return "image-set(" + options.joined(separator: ", ") + ")"
    }

    /// `bytes` with each CRLF and lone CR read as LF, as an HTML parser reads them.
    static func lineBreaksNormalized(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var previous: UInt8 = 0
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), previous == UInt8(ascii: "\r") {
                previous = byte
                continue
            }
            result.append(byte == UInt8(ascii: "\r") ? UInt8(ascii: "\n") : byte)
            previous = byte
        }
        return result
    }

    /// The file's own line break (`\r\n` or `\n`).
    static func lineBreak(in bytes: [UInt8]) -> String {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else { return "\n" }
        return newline > 0 && bytes[newline - 1] == UInt8(ascii: "\r") ? "\r\n" : "\n"
    }
}
