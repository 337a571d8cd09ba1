import DPPXCore

/// A page's measurements as they come in, viewport by viewport, kept per occurrence.
///
/// A report comes from the page's own window: every number in it is untrusted, checked against
/// `LayoutLimits` (finite, in the ranges a layout has) before it is kept, and a report with a
/// number out of them fails the page, named with why (`add` throws), rather than trap later
/// converting or fitting it. What text it carries into the layout file is `PageText`'s to say.
struct Samples {
    private(set) var viewports: Set<Double> = []
    private var text: PageText
    private var imageSamples: [Int: [LayoutFile.Sample]] = [:]
    /// The occurrences measuring showed at some viewport (`MeasureScript`: in an element of
    /// `display: none` beside a shown sibling of its kind).
    private var shownImages: Set<Int> = []
    private var layerSamples: [LayerKey: [LayoutFile.BackgroundSample]] = [:]
    /// Whether any viewport's document was narrower than the viewport (a scrollbar drawn).
    private(set) var scrollbarsShown = false
    /// The document's height at each viewport.
    private var pageHeights: [Double: Double] = [:]
    /// How many elements the page's body held when it loaded (`MeasuringTab.loadedChildren`).
    private(set) var loadedElements: Int?
    /// The selectors of the page's scripts the measuring script matched the images against.
    private let scriptSelectors: [(selector: String, script: String)]
    /// Each `<img>`'s computed style and its holder's, when read (`ImageStyles`).
    private var imageStyles = ImageStyles()

    init(text: PageText, scriptSelectors: [(selector: String, script: String)] = []) {
        self.text = text
        self.scriptSelectors = scriptSelectors
    }

    /// A layer of an element, its image, the declaration that paints it and its computed size:
    /// where another declaration wins at some viewports (one in an `@media` block, or nested in
    /// one inside the rule), another image is painted, or another `background-size` holds (an
    /// `auto` layer paints at the image's natural size, which a rewrite keeps), each one's
    /// viewports are a layer of their own.
    private struct LayerKey: Hashable, Comparable {
        var element: String
        var layer: Int
        var url: String
        /// Root-relative, the rule's selector text (nil for a `style` attribute) and the
        /// conditions the declaration is nested in inside the rule (nil for none).
        var sheet: String?
        var selector: String?
        var nested: [String]?
        var images: [String]?
        var size: String
        /// What orders two keys of one element's layer.
        private var declaration: [String] {
            [url, sheet ?? "", selector ?? "", (nested ?? []).joined(separator: "\n"), (images ?? []).joined(separator: ","), size]
        }
        static func < (a: LayerKey, b: LayerKey) -> Bool {
            if a.element != b.element { return a.element < b.element }
            if a.layer != b.layer { return a.layer < b.layer }
            return a.declaration.lexicographicallyPrecedes(b.declaration)
        }
    }

    /// Adds `MeasureScript`'s report at `viewport`; throws for a number no layout has, or a
    /// report not of the script's shape, naming where it is.
    mutating func add(_ report: JSONValue, viewport: Double) throws(LayoutLimits.Problem) {
        let at = "at a \(SizesLength.number(viewport)) px viewport"
        func number(_ value: JSONValue?, _ field: @autoclosure () -> String) throws(LayoutLimits.Problem) -> Double {
            guard let number = value?.number else {
                throw LayoutLimits.Problem(field: field(), value: value.map(Self.shown) ?? "missing", expected: "a number there")
            }
            return number
        }
        func length(_ value: JSONValue?, _ range: ClosedRange<Double>, _ field: @autoclosure () -> String) throws(LayoutLimits.Problem) -> Double {
            let length = try number(value, field())
            try LayoutLimits.check(length, in: range, field())
            return length
        }
        viewports.insert(viewport)
        if let client = report["clientWidth"]?.number, client < viewport { scrollbarsShown = true }
        if let height = report["height"], height != .null {
            pageHeights[viewport] = try length(height, LayoutLimits.lengths, "its height \(at)")
        }
        if loadedElements == nil, let count = report["loadedElements"], count != .null {
            loadedElements = try LayoutLimits.integer(try number(count, "its count of elements"), in: LayoutLimits.counts, "its count of elements")
        }
        // The <img> tags measured shown (each an offset among this report's images): where a
        // shown box sits is not where the page puts it (beside the slide the page shows), so
        // it has no place; checking a rewrite compares its size on both sides.
        var shown: Set<Int> = []
        if let list = report["shown"], list != .null {
            let count = report["images"]?.array?.count ?? 0
            guard let offsets = list.array, offsets.count <= count else {
                throw LayoutLimits.Problem(field: "the <img> tags shown \(at)", value: Self.shown(list),
                                           expected: "a list of at most \(count) offsets of its <img> tags")
            }
            for offset in offsets {
                let value = try LayoutLimits.integer(try number(offset, "the offset of an <img> shown \(at)"), in: LayoutLimits.counts,
                                                     "the offset of an <img> shown \(at)")
                guard text.isMarkedTag(value) else {
                    throw LayoutLimits.Problem(field: "the offset of an <img> shown \(at)", value: "\(value)",
                                               expected: "an <img> tag there in the page's source")
                }
                shown.insert(value)
            }
        }
        for image in report["images"]?.array ?? [] {
            guard let fields = image.array, fields.count >= 4 else {
                throw LayoutLimits.Problem(field: "an <img> \(at)", value: Self.shown(image),
                                           expected: "[offset, width, height, src, left, top, fit, content box, current src, natural size]")
            }
            let offset = try LayoutLimits.integer(try number(fields[0], "the offset of an <img> \(at)"), in: LayoutLimits.counts,
                                                  "the offset of an <img> \(at)")
            guard text.isMarkedTag(offset) else {
                throw LayoutLimits.Problem(field: "the offset of an <img> \(at)", value: "\(offset)",
                                           expected: "an <img> tag there in the page's source")
            }
            let name = "its <img> at byte \(offset) \(at)"
            let width = try length(fields[1], LayoutLimits.lengths, "the width of \(name)")
            let height = try length(fields[2], LayoutLimits.lengths, "the height of \(name)")
            var left = fields.count > 5 ? try length(fields[4], LayoutLimits.positions, "the left edge of \(name)") : nil
            var top = fields.count > 5 ? try length(fields[5], LayoutLimits.positions, "the top edge of \(name)") : nil
            if shown.contains(offset) {
                (left, top) = (nil, nil)
                shownImages.insert(offset)
            }
            // The width its content is painted at: in its content box, per its object-fit, from
            // the natural size dppx answered its file at (the page's report only for a file
            // of no manifest).
            var painted: Double?
            if fields.count >= 12 {
                let content = (width: try length(fields[7], LayoutLimits.lengths, "the content width of \(name)"),
                               height: try length(fields[8], LayoutLimits.lengths, "the content height of \(name)"))
                let fit = fields[6].string.flatMap(ObjectFit.init(computed:)) ?? .fill
                var natural: (width: Double, height: Double)?
                if let url = fields[9].string, let known = text.imageSize(of: url) {
                    natural = (Double(known.width), Double(known.height))
                } else {
                    natural = (width: try length(fields[10], LayoutLimits.lengths, "the natural width of \(name)"),
                               height: try length(fields[11], LayoutLimits.lengths, "the natural height of \(name)"))
                }
                let width = fit.painted(box: content, natural: natural).width
                try LayoutLimits.check(width, in: LayoutLimits.lengths, "the width the content of \(name) is painted at")
                painted = width
            }
            imageSamples[offset, default: []].append(LayoutFile.Sample(viewport: viewport, width: width, height: height, painted: painted,
                                                                       left: left, top: top))
            if fields.count > 13 {
                guard let image = fields[12].string, Self.isStyleHash(image), let holder = fields[13].string, Self.isStyleHash(holder) else {
                    throw LayoutLimits.Problem(field: "the style of \(name)", value: Self.shown(.array(Array(fields[12...]))),
                                               expected: "two hashes of 16 hexadecimal digits")
                }
                imageStyles.samples[offset, default: []].append(ImageStyles.Sample(viewport: viewport, image: image, holder: holder))
            }
        }
        for layer in report["backgrounds"]?.array ?? [] {
            guard let fields = layer.array, fields.count == 13, let element = fields[0].string, let url = fields[2].string,
                  let size = fields[3].string else {
                throw LayoutLimits.Problem(field: "a background \(at)", value: Self.shown(layer),
                                           expected: "[element, layer, url, size, area, natural size, sheet, selector, nested conditions, image functions, resolution]")
            }
            let name = "the background layer \(Self.shown(fields[1])) \(at)"
            let index = try LayoutLimits.integer(try number(fields[1], name), in: LayoutLimits.counts, "the index of \(name)")
            let areaWidth = try length(fields[4], LayoutLimits.lengths, "the area width of \(name)")
            let areaHeight = try length(fields[5], LayoutLimits.lengths, "the area height of \(name)")
            let naturalWidth = try length(fields[6], LayoutLimits.lengths, "the image width of \(name)")
            let naturalHeight = try length(fields[7], LayoutLimits.lengths, "the image height of \(name)")
            // The resolution of the image-set() option chosen (null for a url()): its natural
            // size in CSS px is its pixels over it.
            let resolution = fields[12] == .null ? nil : try length(fields[12], LayoutLimits.resolutions, "the resolution of \(name)")
            let scale = resolution ?? 1
            guard let computed = BackgroundSize(computed: size),
                  let painted = computed.painted(image: (naturalWidth / scale, naturalHeight / scale), area: (areaWidth, areaHeight)) else { continue }
            try LayoutLimits.check(painted.width, in: LayoutLimits.painted, "the painted width of \(name)")
            try LayoutLimits.check(painted.height, in: LayoutLimits.painted, "the painted height of \(name)")
            // Text into the layout file: the site's own paths and words only (`PageText`).
            guard let path = text.sitePath(of: url), text.isWritten(element, in: text.page) else { continue }
            var sheet = fields[8].string.flatMap(text.sitePath(of:))
            var selector = fields[9].string
            if let written = sheet, let rule = selector, !text.isWritten(rule, in: written) { sheet = nil; selector = nil }
            // The conditions it is nested in inside the rule: text into the layout file too.
            var nested: [String]?
            if selector != nil, let written = sheet, fields[10] != .null {
                nested = Self.nestedConditions(fields[10])
                if let conditions = nested, !conditions.allSatisfy({ text.isWritten($0, in: written) }) { nested = nil }
                if nested == nil { sheet = nil; selector = nil }
            }
            if sheet == nil { selector = nil }
            if selector == nil { nested = nil }
            let images = selector == nil ? nil : Self.imageFunctions(fields[11])
            // Checking, a layer painted from an image-set() is keyed by the file it chose (its
            // URL), another at other widths.
            let key = LayerKey(element: element, layer: index, url: "/" + path, sheet: sheet, selector: selector, nested: nested,
                               images: images, size: size)
            // What one pixel of a file an image-set() chose is painted at.
            let grain = resolution == nil || naturalWidth <= 0 || naturalHeight <= 0
                ? nil : max(painted.width / naturalWidth, painted.height / naturalHeight)
            layerSamples[key, default: []].append(LayoutFile.BackgroundSample(
                viewport: viewport, areaWidth: areaWidth, areaHeight: areaHeight, paintedWidth: painted.width, paintedHeight: painted.height,
                grain: grain))
        }
    }

    /// Adds the measuring script's table of styles (each hash's property hashes by name) and
    /// the script selectors matching each `<img>` (by offset, the selector's index); throws for
    /// a table out of `LayoutLimits`' bounds or not of the script's shape.
    mutating func addStyles(_ table: JSONValue?, named: JSONValue?, rules: JSONValue? = nil, matched: JSONValue? = nil) throws(LayoutLimits.Problem) {
        if case .object(let styles)? = table {
            guard imageStyles.properties.count + styles.count <= LayoutLimits.styles else {
                throw LayoutLimits.Problem(field: "its table of styles", value: "\(imageStyles.properties.count + styles.count) styles",
                                           expected: "at most \(LayoutLimits.styles)")
            }
            for (hash, style) in styles {
                guard Self.isStyleHash(hash), case .object(let properties) = style, properties.count <= LayoutLimits.propertiesPerStyle else {
                    throw LayoutLimits.Problem(field: "the style \(Self.shown(.string(hash)))", value: Self.shown(style),
                                               expected: "at most \(LayoutLimits.propertiesPerStyle) properties, each a hash")
                }
                var values: [String: UInt32] = [:]
                for (name, value) in properties {
                    guard Self.isPropertyName(name), let number = value.number, number.isFinite, number == number.rounded(),
                          number >= 0, number <= Double(UInt32.max) else {
                        throw LayoutLimits.Problem(field: "a property of the style \(hash)", value: Self.shown(.string(name)) + " " + Self.shown(value),
                                                   expected: "a property name of CSS and a whole number below 2^32")
                    }
                    values[name] = UInt32(number)
                }
                imageStyles.properties[hash] = values
            }
        }
        if case .object(let matches)? = named {
            for (key, value) in matches {
                guard let offset = Int(key), text.isMarkedTag(offset), let number = value.number, number == number.rounded(),
                      number >= 0, number < Double(scriptSelectors.count) else {
                    throw LayoutLimits.Problem(field: "a script selector matching an <img>", value: Self.shown(.string(key)) + " " + Self.shown(value),
                                               expected: "a marked <img> and one of the page's script selectors")
                }
                let selector = scriptSelectors[Int(number)]
                if imageStyles.namedByScripts[offset] == nil {
                    // A path is the site's own, but may hold any character: none of them controls a terminal.
                    let script = String(String.UnicodeScalarView(selector.script.unicodeScalars.map {
                        $0.properties.generalCategory == .control ? "?" : $0
                    }))
                    imageStyles.namedByScripts[offset] = "`\(selector.selector)` in \(script)"
                }
            }
        }
        // The rules whose selectors depend on an element's place: text into the layout file
        // (a reason names one), so only a selector of the site's own words (`PageText`).
        var table: [ImageStyles.Rule?] = []
        for rule in rules?.array ?? [] {
            guard let fields = rule.array, fields.count == 3, let href = fields[0].string, let selector = fields[1].string,
                  selector.utf8.count <= Self.longestSelector, let names = fields[2].array, names.count <= Self.propertiesPerRule,
                  table.count < Self.rulesPerPage else {
                throw LayoutLimits.Problem(field: "a style rule", value: Self.shown(rule),
                                           expected: "at most \(Self.rulesPerPage) rules of [sheet, selector, at most \(Self.propertiesPerRule) properties]")
            }
            let properties = names.compactMap(\.string).filter(Self.isPropertyName)
            guard properties.count == names.count else {
                throw LayoutLimits.Problem(field: "the properties of a style rule", value: Self.shown(fields[2]), expected: "property names of CSS")
            }
            let sheet = text.sitePath(of: href)
            let written = sheet.map { text.isWritten(selector, in: $0) } ?? false
            table.append(written && !selector.unicodeScalars.contains { $0.properties.generalCategory == .control }
                ? ImageStyles.Rule(holder: false, selector: selector, properties: Set(properties)) : nil)
        }
        if case .object(let byImage)? = matched {
            for (key, list) in byImage {
                guard let offset = Int(key), text.isMarkedTag(offset), let pairs = list.array, pairs.count <= 2 * table.count else {
                    throw LayoutLimits.Problem(field: "the rules matching an <img>", value: Self.shown(.string(key)), expected: "a marked <img>")
                }
                for pair in pairs {
                    guard let fields = pair.array, fields.count == 2, let which = fields[0].number, which == 0 || which == 1,
                          let index = fields[1].number, index == index.rounded(), index >= 0, index < Double(table.count) else {
                        throw LayoutLimits.Problem(field: "a rule matching the <img> at byte \(offset)", value: Self.shown(pair),
                                                   expected: "[0 or 1, the index of a rule]")
                    }
                    guard var rule = table[Int(index)] else { continue }
                    rule.holder = which == 1
                    if !(imageStyles.rules[offset]?.contains(rule) ?? false) { imageStyles.rules[offset, default: []].append(rule) }
                }
            }
        }
    }

    /// The conditions a declaration is nested in inside its rule, as the measuring script
    /// reports them: at most `maximumNesting`, each an `@media` or `@supports`
    /// prelude of at most `longestSelector` bytes without control characters; nil for anything
    /// else (the layer is then left unnamed).
    static func nestedConditions(_ value: JSONValue) -> [String]? {
        guard let list = value.array, !list.isEmpty, list.count <= maximumNesting else { return nil }
        let conditions = list.compactMap(\.string)
        guard conditions.count == list.count, conditions.allSatisfy({ condition in
            (condition.hasPrefix("@media ") || condition.hasPrefix("@supports ")) && condition.utf8.count <= longestSelector
                && !condition.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }) else { return nil }
        return conditions
    }

    /// The image function of each layer of the declaration the browser kept, as the measuring
    /// script reports them: at most `maximumLayers` names of CSS's image functions (`url`,
    /// a gradient, `image-set`...) or `none`; nil for anything else.
    static func imageFunctions(_ value: JSONValue) -> [String]? {
        guard let list = value.array, !list.isEmpty, list.count <= maximumLayers else { return nil }
        let names = list.compactMap(\.string)
        guard names.count == list.count, names.allSatisfy({ name in
            name.utf8.count <= 40 && (Self.imageFunctionNames.contains(name) || name.hasSuffix("gradient"))
                && name.utf8.allSatisfy { (97...122).contains($0) || $0 == 45 }
        }) else { return nil }
        return names
    }

    /// The image functions of CSS but gradients, and `none`.
    private static let imageFunctionNames: Set<String> = ["none", "url", "image", "image-set", "-webkit-image-set", "cross-fade", "-webkit-cross-fade",
                                                          "element", "-moz-element", "paint", "src"]

    /// The most layers a declaration's image functions are reported for.
    private static let maximumLayers = 64

    /// The most conditions one declaration is nested in inside its rule.
    private static let maximumNesting = 8

    /// The most style rules of one call, and the longest selector and most properties of one.
    private static let rulesPerPage = 256
    private static let longestSelector = 1024
    private static let propertiesPerRule = 64

    /// The images' computed styles, as read.
    var styles: ImageStyles { imageStyles }

    /// A style hash as the measuring script writes it: 16 lowercase hexadecimal digits.
    private static func isStyleHash(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// A CSS property name as a browser names its computed properties (`border-top-left-radius`,
    /// `-webkit-line-clamp`), at most `LayoutLimits.propertyNameLength` characters.
    private static func isPropertyName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= LayoutLimits.propertyNameLength
            && text.utf8.allSatisfy { (97...122).contains($0) || (48...57).contains($0) || $0 == 45 } && !text.hasPrefix("--")
    }

    /// A reported value as a message shows it: its JSON, cut short (a page may send megabytes).
    private static func shown(_ value: JSONValue) -> String {
        let text = value.text
        return text.count > 60 ? text.prefix(60) + "..." : text
    }

    var heights: [LayoutFile.PageHeight] {
        pageHeights.keys.sorted().map { LayoutFile.PageHeight(viewport: $0, height: pageHeights[$0]!) }
    }

    var images: [LayoutFile.Image] {
        imageSamples.keys.sorted().map { offset in
            LayoutFile.Image(offset: offset, src: text.source(ofImageAt: offset), samples: imageSamples[offset]!.sorted { $0.viewport < $1.viewport },
                             shown: shownImages.contains(offset))
        }
    }

    var backgrounds: [LayoutFile.Background] {
        layerSamples.keys.sorted().map { key in
            LayoutFile.Background(element: key.element, layer: key.layer, url: key.url, size: key.size,
                                  samples: layerSamples[key]!.sorted { $0.viewport < $1.viewport }, sheet: key.sheet, selector: key.selector,
                                  nested: key.nested, images: key.images)
        }
    }

    /// The viewports not yet measured where some occurrence's width may change slope.
    func refinements(resolution: Double) -> [Int] {
        let fitter = SizesFitter()
        var wanted = Set<Int>()
        for image in images { wanted.formUnion(fitter.refinements(of: image.boxSamples, resolution: resolution).map { Int($0) }) }
        // A layer's samples together, whichever rule painted them: where the rule changes is
        // a breakpoint to pin too.
        let layers = Dictionary(grouping: backgrounds) { "\($0.layer) \($0.element)" }.values
        for layer in layers {
            wanted.formUnion(fitter.refinements(of: layer.flatMap(\.boxSamples), resolution: resolution).map { Int($0) })
        }
        return wanted.filter { !viewports.contains(Double($0)) }.sorted()
    }
}
