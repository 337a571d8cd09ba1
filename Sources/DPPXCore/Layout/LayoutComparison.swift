/// Whether a rewritten page lays out as the untouched one did: every `<img>` box (its size, and
/// where it is), every background layer (painted on both sides, from the same image, at the
/// same size) and the page's height within `tolerance`, at
/// every viewport both were measured at. The height (the bottom of what the body held when the
/// page loaded) may differ by what the boxes changed in size there, and is compared only when
/// both loads held as many elements: content a page's own script adds when its images are in
/// (a report image) comes before the load event in one load and after it in another on a busy
/// machine, which made the same page 16 px higher or lower from one run to the next. What
/// checking a rewrite in the browser decides with.
///
/// Occurrences are paired by their order in the page: a rewrite adds attributes and
/// `<picture>` wrappers, never `<img>` tags, so the n-th `<img>` before is the n-th after.
public struct LayoutComparison: Sendable {
    /// How far a box may move, CSS px: the same half pixel `SizesFitter` allows.
    public static let tolerance = SizesFitter.tolerance

    /// How an `<img>` box moved.
    public enum Move: Hashable, Sendable {
        /// Its width or height changed: its box follows its natural width.
        case resized
        /// Only where it is changed: something around it moved it.
        case displaced
    }

    /// The `<img>` boxes that moved: each one's index among the page's `<img>` tags, how, and a
    /// phrase saying it (`drawn 168.39x112.11 px at a 800 px viewport, 228.44x152.2 px before`,
    /// `drawn at 40,200 at a 1280 px viewport, at 80,200 before`: the first viewport where it
    /// moved, both there). A box may sit off by the tolerance and by as much as the boxes before
    /// it changed size at that viewport (files of whole pixels give `height: auto` boxes a
    /// fraction of a pixel more or less, and the boxes after them move by as much).
    public static func movedImages(before: LayoutFile.Page, after: LayoutFile.Page) -> [(index: Int, move: Move, drawn: String)] {
        var result: [(index: Int, move: Move, drawn: String)] = []
        // By viewport: how much the boxes so far changed size, which may shift the ones after.
        var drift: [Double: Double] = [:]
        for (index, (old, new)) in zip(before.images, after.images).enumerated() {
            let newSamples = Dictionary(new.samples.map { ($0.viewport, $0) }, uniquingKeysWith: { a, _ in a })
            defer { drift.merge(sizeChange(from: old, to: new), uniquingKeysWith: +) }
            var found: (move: Move, drawn: String)?
            for sample in old.samples {
                guard let moved = newSamples[sample.viewport] else { continue }
                let at = "at a \(SizesLength.number(sample.viewport)) px viewport"
                let allowance = tolerance + drift[sample.viewport, default: 0]
                if found == nil, abs(moved.width - sample.width) > tolerance || abs(moved.height - sample.height) > tolerance {
                    found = (.resized, "drawn \(size(moved.width, moved.height)) \(at), \(size(sample.width, sample.height)) before")
                } else if found == nil, let left = sample.left, let top = sample.top, let newLeft = moved.left, let newTop = moved.top,
                          abs(newLeft - left) > allowance || abs(newTop - top) > allowance {
                    found = (.displaced, "drawn at \(SizesLength.number(newLeft)),\(SizesLength.number(newTop)) \(at), at \(SizesLength.number(left)),\(SizesLength.number(top)) before")
                }
            }
            if let found { result.append((index, found.move, found.drawn)) }
        }
        return result
    }

    /// What two loads of the same untouched page disagree on: the page's own jitter (an
    /// animation, content a script adds at a moment that varies, an image slow to load), which
    /// is no reason to say a rewrite moved anything.
    public struct Jitter: Hashable, Sendable {
        /// The `<img>` occurrences (by index) whose boxes differed.
        public var images: Set<Int> = []
        /// Whether the page's height, its number of images or a background differed.
        public var page = false

        public static let none = Jitter()

        public init(images: Set<Int> = [], page: Bool = false) {
            self.images = images
            self.page = page
        }

        public mutating func formUnion(_ other: Jitter) {
            images.formUnion(other.images)
            page = page || other.page
        }
    }

    /// What `first` and `second`, two loads of one untouched page measured the same way,
    /// disagree on.
    public static func jitter(between first: LayoutFile.Page, and second: LayoutFile.Page) -> Jitter {
        Jitter(images: Set(movedImages(before: first, after: second).map(\.index)),
               page: pageDifference(before: first, after: second) != nil)
    }

    /// The first difference found, as a sentence naming the box, the viewport and both sizes;
    /// nil when the pages lay out alike. `lineOfOffset` gives the line of an `<img>`'s offset
    /// in the untouched page; what `setAside` names is the page's own jitter, not a difference.
    public static func difference(before: LayoutFile.Page, after: LayoutFile.Page, lineOfOffset: (Int) -> Int,
                                  setAside: Jitter = .none) -> String? {
        if let first = movedImages(before: before, after: after).first(where: { !setAside.images.contains($0.index) }) {
            let image = before.images[first.index]
            return "its <img src=\"\(image.src)\"> (line \(lineOfOffset(image.offset))) was \(first.drawn)"
        }
        return setAside.page ? nil : pageDifference(before: before, after: after)
    }

    /// A difference other than an `<img>` box: the number of images, the page's height, a
    /// background layer painted on one side only, from another image or at another size; nil
    /// when there is none.
    public static func pageDifference(before: LayoutFile.Page, after: LayoutFile.Page) -> String? {
        if before.images.count != after.images.count {
            return "it drew \(after.images.count) <img> where it drew \(before.images.count)"
        }
        if let held = before.loadedElements, held == after.loadedElements {
            // By viewport: how much the boxes changed size, which the height may follow.
            var drift: [Double: Double] = [:]
            for (old, new) in zip(before.images, after.images) {
                drift.merge(sizeChange(from: old, to: new), uniquingKeysWith: +)
            }
            let newHeights = Dictionary(after.heights.map { ($0.viewport, $0.height) }, uniquingKeysWith: { a, _ in a })
            for height in before.heights {
                guard let now = newHeights[height.viewport], abs(now - height.height) > tolerance + drift[height.viewport, default: 0] else { continue }
                return "the page was \(SizesLength.number(now)) px high at a \(SizesLength.number(height.viewport)) px viewport, \(SizesLength.number(height.height)) px before"
            }
        }
        // By element, layer and viewport, whichever entry holds the sample: a layer is an entry
        // per rule and per background-size (and, checking, per file an image-set() chose), each
        // over the viewports where it held. A layer painted on one side only, from another
        // master (`url`: a checking pass names each file by its master's) or at another size
        // is a difference; a file of whole pixels may be painted a pixel of it off (`grain`).
        struct Place: Hashable {
            var element: String
            var layer: Int
            var viewport: Double
        }
        func places(_ page: LayoutFile.Page) -> [Place: (url: String, sample: LayoutFile.BackgroundSample)] {
            Dictionary(page.backgrounds.flatMap { layer in
                layer.samples.map { (Place(element: layer.element, layer: layer.layer, viewport: $0.viewport), (layer.url, $0)) }
            }, uniquingKeysWith: { a, _ in a })
        }
        let oldSamples = places(before), newSamples = places(after)
        // The viewports both were measured at (a page's height is read at each).
        func measured(_ page: LayoutFile.Page) -> Set<Double> {
            Set(page.heights.map(\.viewport) + page.images.flatMap { $0.samples.map(\.viewport) }
                + page.backgrounds.flatMap { $0.samples.map(\.viewport) })
        }
        let both = measured(before).intersection(measured(after))
        for layer in before.backgrounds {
            for sample in layer.samples {
                let at = "at a \(SizesLength.number(sample.viewport)) px viewport"
                guard let (url, now) = newSamples[Place(element: layer.element, layer: layer.layer, viewport: sample.viewport)] else {
                    guard both.contains(sample.viewport) else { continue }
                    return "the background \(layer.url) of \(layer.element) was not painted \(at), \(size(sample.paintedWidth, sample.paintedHeight)) before"
                }
                if url != layer.url {
                    return "the background of \(layer.element) was painted from \(url) \(at), from \(layer.url) before"
                }
                let allowance = tolerance + (now.grain ?? 0) + (sample.grain ?? 0)
                if abs(now.paintedWidth - sample.paintedWidth) > allowance || abs(now.paintedHeight - sample.paintedHeight) > allowance
                    || abs(now.areaWidth - sample.areaWidth) > tolerance || abs(now.areaHeight - sample.areaHeight) > tolerance {
                    return "the background \(layer.url) of \(layer.element) was painted \(size(now.paintedWidth, now.paintedHeight)) in a \(size(now.areaWidth, now.areaHeight)) box \(at), \(size(sample.paintedWidth, sample.paintedHeight)) in \(size(sample.areaWidth, sample.areaHeight)) before"
                }
            }
        }
        for layer in after.backgrounds {
            for sample in layer.samples where oldSamples[Place(element: layer.element, layer: layer.layer, viewport: sample.viewport)] == nil {
                guard both.contains(sample.viewport) else { continue }
                return "the background \(layer.url) of \(layer.element) was painted \(size(sample.paintedWidth, sample.paintedHeight)) at a \(SizesLength.number(sample.viewport)) px viewport, where it was not before"
            }
        }
        return nil
    }

    /// How much an `<img>` box changed in width and height together, by viewport (those both
    /// were measured at).
    private static func sizeChange(from old: LayoutFile.Image, to new: LayoutFile.Image) -> [Double: Double] {
        let newSamples = Dictionary(new.samples.map { ($0.viewport, $0) }, uniquingKeysWith: { a, _ in a })
        return Dictionary(old.samples.compactMap { sample in
            newSamples[sample.viewport].map { (sample.viewport, abs($0.width - sample.width) + abs($0.height - sample.height)) }
        }, uniquingKeysWith: { a, _ in a })
    }

    private static func size(_ width: Double, _ height: Double) -> String {
        "\(SizesLength.number(width))x\(SizesLength.number(height)) px"
    }
}
