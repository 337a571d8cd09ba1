import DPPXCore

/// A page's measurements as they come in, viewport by viewport, kept per occurrence.
struct Samples {
    private(set) var viewports: Set<Double> = []
    private var imageSources: [Int: String] = [:]
    private var imageSamples: [Int: [LayoutFile.Sample]] = [:]
    private var layerInfo: [LayerKey: (url: String, size: String)] = [:]
    private var layerSamples: [LayerKey: [LayoutFile.BackgroundSample]] = [:]
    /// Whether any viewport's document was narrower than the viewport (a scrollbar drawn).
    private(set) var scrollbarsShown = false
    /// The document's height at each viewport.
    private var pageHeights: [Double: Double] = [:]
    /// How many elements the page's body held when it loaded (`MeasuringTab.loadedChildren`).
    private(set) var loadedElements: Int?

    /// A layer of an element, and the declaration that paints it: where another rule wins at
    /// some viewports (one in an `@media` block), each rule's viewports are a layer of their own.
    private struct LayerKey: Hashable, Comparable {
        var element: String
        var layer: Int
        /// Root-relative, and the rule's selector text (nil for a `style` attribute).
        var sheet: String?
        var selector: String?
        static func < (a: LayerKey, b: LayerKey) -> Bool {
            (a.element, a.layer, a.sheet ?? "", a.selector ?? "") < (b.element, b.layer, b.sheet ?? "", b.selector ?? "")
        }
    }

    /// Adds `MeasureScript`'s report at `viewport`.
    mutating func add(_ report: JSONValue, viewport: Double) {
        viewports.insert(viewport)
        if let client = report["clientWidth"]?.number, client < viewport { scrollbarsShown = true }
        if let height = report["height"]?.number { pageHeights[viewport] = height }
        if loadedElements == nil, let count = report["loadedElements"]?.number { loadedElements = Int(count) }
        for image in report["images"]?.array ?? [] {
            guard let fields = image.array, fields.count >= 4, let offset = fields[0].number, let width = fields[1].number,
                  let height = fields[2].number else { continue }
            imageSources[Int(offset)] = fields[3].string ?? ""
            let left = fields.count > 5 ? fields[4].number : nil, top = fields.count > 5 ? fields[5].number : nil
            imageSamples[Int(offset), default: []].append(LayoutFile.Sample(viewport: viewport, width: width, height: height, left: left, top: top))
        }
        for layer in report["backgrounds"]?.array ?? [] {
            guard let fields = layer.array, fields.count == 10, let element = fields[0].string, let index = fields[1].number,
                  let url = fields[2].string, let size = fields[3].string, let areaWidth = fields[4].number,
                  let areaHeight = fields[5].number, let naturalWidth = fields[6].number, let naturalHeight = fields[7].number,
                  let computed = BackgroundSize(computed: size),
                  let painted = computed.painted(image: (naturalWidth, naturalHeight), area: (areaWidth, areaHeight)) else { continue }
            let key = LayerKey(element: element, layer: Int(index), sheet: fields[8].string.flatMap(SiteResponder.path(of:)),
                               selector: fields[9].string)
            layerInfo[key] = (SiteResponder.path(of: url).map { "/" + $0 } ?? url, size)
            layerSamples[key, default: []].append(LayoutFile.BackgroundSample(
                viewport: viewport, areaWidth: areaWidth, areaHeight: areaHeight, paintedWidth: painted.width, paintedHeight: painted.height))
        }
    }

    var heights: [LayoutFile.PageHeight] {
        pageHeights.keys.sorted().map { LayoutFile.PageHeight(viewport: $0, height: pageHeights[$0]!) }
    }

    var images: [LayoutFile.Image] {
        imageSamples.keys.sorted().map { offset in
            LayoutFile.Image(offset: offset, src: imageSources[offset] ?? "", samples: imageSamples[offset]!.sorted { $0.viewport < $1.viewport })
        }
    }

    var backgrounds: [LayoutFile.Background] {
        layerSamples.keys.sorted().map { key in
            LayoutFile.Background(element: key.element, layer: key.layer, url: layerInfo[key]!.url, size: layerInfo[key]!.size,
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
