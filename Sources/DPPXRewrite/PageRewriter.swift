import DPPXCore
import Foundation

/// Adds the candidates of the site's images to HTML pages and stylesheets, changing nothing
/// a browser lays out by: `srcset` with `x` descriptors keeps a density image's 1x box, `w`
/// descriptors go only where the page says how wide the image is shown, and CSS gets an
/// `image-set()` after the background it refines. Every other byte stays as it was, and a
/// second run changes nothing.
public struct PageRewriter: Sendable {
    public let images: SiteImages
    public let options: RewriteOptions

    public init(images: SiteImages, options: RewriteOptions = RewriteOptions()) {
        self.images = images
        self.options = options
    }

    /// The HTML page `bytes` (UTF-8), at `pagePath` relative to the root, rewritten.
    public func rewriteHTML(_ bytes: [UInt8], at pagePath: String) -> RewriteResult {
        let first = rewriteHTML(bytes, at: pagePath, unwrapped: [])
        guard options.picture, !first.wrapped.isEmpty else { return first.result }
        // A <picture> cannot hold an <img> the parser moves out of it (out of inline SVG, say):
        // such images keep their srcset and are not wrapped, so a second run changes nothing.
        let inPictures = Set(HTMLPage(parsing: first.result.bytes).images.filter { $0.pictureSources != nil }.map(\.start))
        let misplaced = first.wrapped.filter { !inPictures.contains($0.value) }.map(\.key)
        guard !misplaced.isEmpty else { return first.result }
        return rewriteHTML(bytes, at: pagePath, unwrapped: Set(misplaced)).result
    }

    /// The rewrite, leaving the `<img>` tags starting at `unwrapped` out of `<picture>`; also
    /// where each wrapped tag starts in the original (key) and in the result (value).
    private func rewriteHTML(_ bytes: [UInt8], at pagePath: String, unwrapped: Set<Int>)
        -> (result: RewriteResult, wrapped: [Int: Int]) {
        var wrappedStarts: [Int] = []
        var edits = ByteEdits()
        var findings: [RewriteFinding] = []
        var rewritten = 0
        var exact = 0
        var sizesWritten: [String] = []
        let page = HTMLPage(parsing: bytes)
        if let refusal = page.refusal {
            let (offset, message) = switch refusal {
            case .tooDeep(let offset):
                (offset, "the page nests elements more than \(ElementNesting.maximumDepth) deep here (browsers stop nesting there), so it is not read; left as it is")
            case .abortsTheParser:
                (0, "its markup fails an assertion of the HTML parser dppx reads pages with (gumbo 0.10: misnested tables, forms or SVG and MathML such as <table><math><select><mi><template>), so it is not read; left as it is")
            }
            let finding = RewriteFinding(file: pagePath, line: RewriteFinding.line(of: offset, in: bytes), message: message, isPageLeftUnread: true)
            return (RewriteResult(bytes: bytes, findings: [finding], imagesRewritten: 0), [:])
        }
        let measuredPage = options.layout?.pages[pagePath]
        // Relative URLs resolve against the page's `<base href>` when it has one.
        let documentPath = ImageURL.documentPath(pagePath: pagePath, baseHref: page.baseHref, baseURL: options.baseURL)
        if let href = page.baseHref, documentPath == nil {
            findings.append(RewriteFinding(file: pagePath, line: 1, message: "<base href=\"\(href)\"> is neither under the root nor under --base-url: the page's relative URLs are not the site's files, so its images are left as they are (pass --base-url with the site's address)"))
        }
        for tag in page.images {
            guard let src = tag.attribute("src") else { continue }
            let line = RewriteFinding.line(of: tag.start, in: bytes)
            guard let reference = ImageReference(src.value, pagePath: documentPath, images: images, baseURL: options.baseURL) else {
                if let unbuilt = unbuiltImage(src.value, documentPath: documentPath) {
                    findings.append(RewriteFinding(file: pagePath, line: line, message: "<img src=\"\(src.value.trimmingCharacters(in: .whitespacesAndNewlines))\">: \(unbuilt) is in the folder of \(images.manifestPath(containing: unbuilt) ?? "a manifest") but not in it: build it (dppx build) to give it candidates; left as it is"))
                }
                continue
            }
            let report = { (message: String) in
                findings.append(RewriteFinding(file: pagePath, line: line, message: "<img src=\"\(reference.written)\">: \(message)"))
            }
            var added: [(name: String, value: String)] = []
            let image = reference.entry.image
            let srcset = reference.srcset
            let existing = tag.attribute("srcset")
            let ownsSrcset = existing.map { reference.owns(srcsetByDppx: $0.value, pagePath: documentPath, baseURL: options.baseURL) } ?? false
            if let attribute = ScriptLoadedImage.sourceAttribute(of: tag) {
                report(ScriptLoadedImage.reason(attribute: attribute))
                // What an earlier run wrote there goes with it.
                if ownsSrcset, let existing {
                    edits.replace(Self.removal(of: existing, in: bytes), with: "")
                    if let sizes = tag.attribute("sizes"), measuredPage?.sizesWritten.contains(sizes.value) == true {
                        edits.replace(Self.removal(of: sizes, in: bytes), with: "")
                    }
                }
                continue
            }
            if reference.primary.count <= 1 {
                report("\(image.path) has one file only (\(reference.primary.first?.descriptor ?? "1x")): nothing for a srcset to choose from; build it at more densities or widths, or from a larger master")
                // A srcset an earlier run wrote lists files the rebuild no longer has: it goes,
                // with the measured sizes written beside it (a srcset of one file chooses nothing).
                if ownsSrcset, let existing {
                    edits.replace(Self.removal(of: existing, in: bytes), with: "")
                    if let sizes = tag.attribute("sizes"), measuredPage?.sizesWritten.contains(sizes.value) == true {
                        edits.replace(Self.removal(of: sizes, in: bytes), with: "")
                    }
                }
            }
            var sizesValue = tag.attribute("sizes")?.value
            if reference.primary.count > 1 {
                // A `sizes` dppx wrote from a measurement is its own to replace; any other is the page's.
                let own = tag.attribute("sizes")
                let ownIsMeasured = own.map { ownsSrcset && measuredPage?.sizesWritten.contains($0.value) == true } ?? false
                // An image whose box moved when its rewrite was checked, with a `sizes` of the
                // page's own or of a rule (which a measurement does not replace): left as the page
                // wrote it, the rest of the page rewritten. (One whose sizes is measured is left
                // without srcset below, with why.)
                if let moved = measuredPage?.images.first(where: { $0.offset == tag.start })?.unsized, existing == nil || ownsSrcset,
                   !image.isFluid || !(own == nil || ownIsMeasured) || PlanSettings(rules: options.rules).rule(for: reference.entry.source).sizes != nil {
                    report("its box moved when its rewrite was checked: with its srcset it was \(moved); left as the page wrote it (give its box a width in CSS to have a srcset written)")
                    if ownsSrcset, let existing { edits.replace(Self.removal(of: existing, in: bytes), with: "") }
                    continue
                }
                if image.isFluid, own == nil || ownIsMeasured {
                    let value: String
                    switch sizes(for: reference, tag: tag, measured: measuredPage.map { page in page.images.first { $0.offset == tag.start } },
                                 emBreakpoints: measuredPage?.emBreakpoints ?? [], written: ownIsMeasured ? own?.value : nil) {
                    case .stated(let stated):
                        value = stated
                    case .measured(let fitted):
                        value = fitted
                        sizesWritten.append(fitted)
                        exact += 1
                    case .refused(let why):
                        report("\(reference.entry.image.path) is fluid and \(why); left without srcset")
                        continue
                    case .unknown:
                        report("\(reference.entry.image.path) is fluid (files \(image.widths.map { "\($0)w" }.joined(separator: ", "))) and the page does not say how wide it is shown: add sizes=\"...\" (e.g. sizes=\"(min-width: 800px) 600px, 100vw\") or a width attribute, give its [[rule]] a sizes, or pass --sizes; left without srcset")
                        continue
                    }
                    sizesValue = value
                    if let own, let range = own.writtenValue {
                        if own.value != value { edits.replace(range, with: "\"" + Self.escapeAttribute(value) + "\"") }
                    } else {
                        added.append(("sizes", value))
                    }
                }
                if let existing {
                    guard ownsSrcset else {
                        report("has a srcset of its own; left as it is (remove it to have dppx write one)")
                        continue
                    }
                    if existing.value != srcset, let range = existing.writtenValue {
                        edits.replace(range, with: "\"" + Self.escapeAttribute(srcset) + "\"")
                    }
                } else {
                    added.insert(("srcset", srcset), at: 0)
                }
                rewritten += 1
                if tag.pictureSources != nil || (options.picture && !reference.candidates.extra.isEmpty) {
                    if tag.pictureSources == nil, unwrapped.contains(tag.start) {
                        report("is where a <picture> cannot hold it (in inline SVG or other foreign content); left without one")
                    } else if tag.pictureSources == nil, let why = measuredPage?.images.first(where: { $0.offset == tag.start })?.unwrapped {
                        report("written without <picture>: \(why)")
                    } else {
                        if pictureEdits(reference, tag: tag, sizes: sizesValue, documentPath: documentPath, edits: &edits, report: report) {
                            wrappedStarts.append(tag.start)
                        }
                    }
                }
            }
            if options.dimensions, tag.attribute("width") == nil, tag.attribute("height") == nil {
                added.append(("width", String(image.width)))
                added.append(("height", String(image.height)))
            }
            if let placeholder = options.placeholder {
                placeholderEdit(placeholder, image: image, tag: tag, added: &added, edits: &edits, report: report)
            }
            if !added.isEmpty {
                edits.replace(tag.insertionPoint..<tag.insertionPoint,
                              with: added.map { " \($0.name)=\"\(Self.escapeAttribute($0.value))\"" }.joined())
            }
        }
        rewritten += rewriteStyles(of: page, in: bytes, at: pagePath, documentPath: documentPath, into: &edits, findings: &findings)
        // In page order, the images' and the styles' findings together.
        findings = findings.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
        let result = RewriteResult(bytes: edits.isEmpty ? bytes : edits.applied(to: bytes), findings: findings, imagesRewritten: rewritten,
                                   imagesMadeExact: exact, sizesWritten: Array(Set(sizesWritten)).sorted(), wrapped: wrappedStarts)
        // The `<img` of a wrapped tag follows the `<picture>...` inserted at its start.
        let wrapped = Dictionary(uniqueKeysWithValues: wrappedStarts.map { ($0, edits.newOffset(of: $0 + 1) - 1) })
        return (result, wrapped)
    }

    /// `--picture`: an `<img>` outside a picture is wrapped in one with a `<source>` per extra
    /// format. In a picture (with or without `--picture`), the sources dppx wrote (a `type` of
    /// an image format and a `srcset` named as this image's files, `ImageFileNames`) follow the
    /// build: when they are not the image's current formats and files, they are all replaced by
    /// the current ones where the first of them was, so a format a rebuild dropped leaves no
    /// `<source>` behind. Other sources are left alone (and reported with `--picture`).
    /// True when it wrapped the tag.
    private func pictureEdits(_ reference: ImageReference, tag: HTMLTag, sizes: String?, documentPath: String?,
                              edits: inout ByteEdits, report: (String) -> Void) -> Bool {
        let sizesAttribute = sizes.map { " sizes=\"\(Self.escapeAttribute($0))\"" } ?? ""
        let wanted = reference.candidates.extra.map { extra in
            (type: extra.format.mediaType, srcset: extra.candidates.map { "\($0.url) \($0.descriptor)" }.joined(separator: ", "))
        }
        let sourcesText = wanted.map { "<source type=\"\($0.type)\" srcset=\"\(Self.escapeAttribute($0.srcset))\"\(sizesAttribute)>" }.joined()
        guard let sources = tag.pictureSources else {
            edits.replace(tag.start..<tag.start, with: "<picture>" + sourcesText)
            edits.replace(tag.end..<tag.end, with: "</picture>")
            return true
        }
        var own: [(tag: HTMLTag, type: String, srcset: String)] = []
        for source in sources {
            guard let existing = source.attribute("srcset") else { continue }
            guard reference.owns(srcsetByDppx: existing.value, pagePath: documentPath, baseURL: options.baseURL),
                  let type = source.attribute("type")?.value, ImageFormat.allCases.contains(where: { $0.mediaType == type })
            else {
                if options.picture { report("is in a <picture> whose <source srcset=\"\(existing.value)\"> is not dppx's; its sources are left as they are") }
                continue
            }
            own.append((source, type, existing.value))
        }
        guard let first = own.first, !own.map({ [$0.type, $0.srcset] }).elementsEqual(wanted.map({ [$0.type, $0.srcset] })) else { return false }
        edits.replace(first.tag.start..<first.tag.start, with: sourcesText)
        for source in own { edits.replace(source.tag.start..<source.tag.end, with: "") }
        return false
    }

    /// The root-relative path of the image file `src` names when a manifest's folder holds it
    /// but no manifest lists it (a master added since the last build); nil for anything else.
    private func unbuiltImage(_ src: String, documentPath: String?) -> String? {
        guard let url = ImageURL(src, pagePath: documentPath, baseURL: options.baseURL), images.match(url.path) == nil,
              MasterName(relativePath: url.path) != nil, images.manifestPath(containing: url.path) != nil else { return nil }
        return url.path
    }

    /// What to do about a fluid image no measurement sizes.
    private static let sizesAdvice = ": add sizes=\"...\" or give its [[rule]] a sizes"

    /// Where a fluid image's `sizes` comes from.
    private enum SizesSource {
        /// Said by the user: a rule's `sizes`, the tag's `width`, `--sizes`.
        case stated(String)
        /// Fitted to the occurrence's measured boxes (`SizesFitter`).
        case measured(String)
        /// Measured, but no `sizes` gives its boxes: why.
        case refused(String)
        /// Nothing says.
        case unknown
    }

    /// How wide a fluid image is shown, when something says: a rule's `sizes`, else the
    /// occurrence's measured boxes (`measured`: nil when its page was not measured, `.some(nil)`
    /// when it was but this `<img>` was not drawn), else the tag's `width` in CSS px, else `--sizes`.
    /// `written`: the `sizes` an earlier run wrote from a measurement, kept while it still
    /// gives every measured box.
    private func sizes(for reference: ImageReference, tag: HTMLTag, measured: LayoutFile.Image??, emBreakpoints: [Double] = [],
                       written: String? = nil) -> SizesSource {
        if let rule = PlanSettings(rules: options.rules).rule(for: reference.entry.source).sizes { return .stated(rule) }
        if let measured {
            guard let measured else {
                return .refused("was not drawn when its page was measured (inside <template> or <noscript>, or added or removed by a script)" + Self.sizesAdvice)
            }
            if let moved = measured.unsized {
                return .refused("its box depends on its natural width (a flex or grid item sized by its content, a float, a shrink-to-fit box): with the sizes of its measured boxes it was \(moved); give its box a width in CSS (a flex-basis, a width) to have one written")
            }
            switch SizesFitter(emBreakpoints: emBreakpoints).fit(measured.boxSamples) {
            case .sizes(let value):
                // Kept while it holds, and while its conditions are in the units the fit's are.
                if let written, SizesFitter.firstMiss(of: written, at: measured.boxSamples) == nil,
                   SizesValue(parsing: written)?.entries.map(\.conditionsInEm) == value.entries.map(\.conditionsInEm) {
                    return .measured(written)
                }
                return .measured(value.description)
            case .refused(let refusal): return .refused(refusal.description + Self.sizesAdvice)
            }
        }
        if let width = tag.attribute("width").flatMap({ Int($0.value.trimmingCharacters(in: .whitespaces)) }), width > 0 {
            return .stated("\(width)px")
        }
        return options.sizes.map { .stated($0) } ?? .unknown
    }

    /// The candidates of a `srcset` value (`a.jpg 1x, a@2x.jpg 2x`): each one's URL, and its
    /// descriptor when it has one.
    static func srcsetCandidates(_ srcset: String) -> [(url: String, descriptor: Substring?)] {
        srcset.split(separator: ",").compactMap { candidate in
            let parts = candidate.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" })
            guard let url = parts.first else { return nil }
            return (String(url), parts.count == 2 ? parts[1] : nil)
        }
    }

    /// The bytes to remove to take `attribute` out of its tag: its name, its value and the
    /// white space before it.
    static func removal(of attribute: HTMLTag.Attribute, in bytes: [UInt8]) -> Range<Int> {
        var start = attribute.nameRange.lowerBound
        while start > 0, CSSDeclaration.isSpace(bytes[start - 1]) { start -= 1 }
        return start..<(attribute.writtenValue?.upperBound ?? attribute.nameRange.upperBound)
    }

    /// `&` and `quote` escaped for an attribute in that quote (double by default).
    static func escapeAttribute(_ text: String, quote: Character = "\"") -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "\"" where quote == "\"": result += "&quot;"
            case "'" where quote == "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
