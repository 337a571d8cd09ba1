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
    private var layerURLs: [LayerKey: String] = [:]
    private var layerSamples: [LayerKey: [LayoutFile.BackgroundSample]] = [:]
    /// Whether any viewport's document was narrower than the viewport (a scrollbar drawn).
    private(set) var scrollbarsShown = false
    /// The document's height at each viewport.
    private var pageHeights: [Double: Double] = [:]
    /// How many elements the page's body held when it loaded (`MeasuringTab.loadedChildren`).
    private(set) var loadedElements: Int?

    init(text: PageText) {
        self.text = text
    }

    /// A layer of an element, the declaration that paints it and its computed size: where
    /// another rule wins at some viewports (one in an `@media` block), or another
    /// `background-size` holds (an `auto` layer paints at the image's natural size, which a
    /// rewrite keeps), each one's viewports are a layer of their own.
    private struct LayerKey: Hashable, Comparable {
        var element: String
        var layer: Int
        /// Root-relative, and the rule's selector text (nil for a `style` attribute).
        var sheet: String?
        var selector: String?
        var size: String
        static func < (a: LayerKey, b: LayerKey) -> Bool {
            (a.element, a.layer, a.sheet ?? "", a.selector ?? "", a.size) < (b.element, b.layer, b.sheet ?? "", b.selector ?? "", b.size)
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
            let left = fields.count > 5 ? try length(fields[4], LayoutLimits.positions, "the left edge of \(name)") : nil
            let top = fields.count > 5 ? try length(fields[5], LayoutLimits.positions, "the top edge of \(name)") : nil
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
        }
        for layer in report["backgrounds"]?.array ?? [] {
            guard let fields = layer.array, fields.count == 10, let element = fields[0].string, let url = fields[2].string,
                  let size = fields[3].string else {
                throw LayoutLimits.Problem(field: "a background \(at)", value: Self.shown(layer),
                                           expected: "[element, layer, url, size, area, natural size, sheet, selector]")
            }
            let name = "the background layer \(Self.shown(fields[1])) \(at)"
            let index = try LayoutLimits.integer(try number(fields[1], name), in: LayoutLimits.counts, "the index of \(name)")
            let areaWidth = try length(fields[4], LayoutLimits.lengths, "the area width of \(name)")
            let areaHeight = try length(fields[5], LayoutLimits.lengths, "the area height of \(name)")
            let naturalWidth = try length(fields[6], LayoutLimits.lengths, "the image width of \(name)")
            let naturalHeight = try length(fields[7], LayoutLimits.lengths, "the image height of \(name)")
            guard let computed = BackgroundSize(computed: size),
                  let painted = computed.painted(image: (naturalWidth, naturalHeight), area: (areaWidth, areaHeight)) else { continue }
            try LayoutLimits.check(painted.width, in: LayoutLimits.painted, "the painted width of \(name)")
            try LayoutLimits.check(painted.height, in: LayoutLimits.painted, "the painted height of \(name)")
            // Text into the layout file: the site's own paths and words only (`PageText`).
            guard let path = text.sitePath(of: url), text.isWritten(element, in: text.page) else { continue }
            var sheet = fields[8].string.flatMap(text.sitePath(of:))
            var selector = fields[9].string
            if let written = sheet, let rule = selector, !text.isWritten(rule, in: written) { sheet = nil; selector = nil }
            if sheet == nil { selector = nil }
            let key = LayerKey(element: element, layer: index, sheet: sheet, selector: selector, size: size)
            layerURLs[key] = "/" + path
            layerSamples[key, default: []].append(LayoutFile.BackgroundSample(
                viewport: viewport, areaWidth: areaWidth, areaHeight: areaHeight, paintedWidth: painted.width, paintedHeight: painted.height))
        }
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
            LayoutFile.Image(offset: offset, src: text.source(ofImageAt: offset), samples: imageSamples[offset]!.sorted { $0.viewport < $1.viewport })
        }
    }

    var backgrounds: [LayoutFile.Background] {
        layerSamples.keys.sorted().map { key in
            LayoutFile.Background(element: key.element, layer: key.layer, url: layerURLs[key]!, size: key.size,
                                  samples: layerSamples[key]!.sorted { $0.viewport < $1.viewport }, sheet: key.sheet, selector: key.selector)
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
