/// `dppx-layout.json`: what measuring a site's pages found, per page and per image occurrence,
/// and what each page's measurement depended on, so an unchanged page is not measured again.
///
/// Written with sorted keys, occurrences in source order and backgrounds in element order, so
/// the same measurements give the same bytes; each sample an array of numbers, and no
/// indentation (a 200-page site keeps some 180,000 samples). The schema is in docs/layout-file.md.
public struct LayoutFile: Codable, Hashable, Sendable {
    /// The name of the file, beside the manifest (or at the site's root).
    public static let fileName = "dppx-layout.json"
    /// The schema's version; a file of another version is measured again.
    public static let currentVersion = 5

    public var version: Int
    /// By page path relative to the site's root, with `/`.
    public var pages: [String: Page]
    /// The pages that could not be measured, by path, each with why and what it loaded: one
    /// whose dependencies still hash as recorded fails the same way again, and is not loaded.
    /// Written only when there is one (`failed` is absent from files without failures).
    public var failed: [String: Failure]

    public init(pages: [String: Page] = [:], failed: [String: Failure] = [:]) {
        self.version = Self.currentVersion
        self.pages = pages
        self.failed = failed
    }

    private enum CodingKeys: String, CodingKey {
        case version, pages, failed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        pages = try container.decode([String: Page].self, forKey: .pages)
        failed = try container.decodeIfPresent([String: Failure].self, forKey: .failed) ?? [:]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(pages, forKey: .pages)
        if !failed.isEmpty { try container.encode(failed, forKey: .failed) }
    }

    /// One page's measurements.
    public struct Page: Codable, Hashable, Sendable {
        /// A hash of everything the measurements depended on (`dependencies`' contents, the
        /// image sizes served, the viewport ladder).
        public var hash: String
        /// Every file the page loaded, relative to the root (the page first), and the images
        /// it was given at their master's size: what `hash` covers.
        public var dependencies: [String]
        /// The viewport's height, CSS px (`vh` is counted against it).
        public var viewportHeight: Double
        /// `hidden`: the browser drew no scrollbar, so the viewport width and `100vw` are one
        /// number at every sample.
        public var scrollbars: String
        /// Every `<img>` the page rendered, by its place in the page's source.
        public var images: [Image]
        /// Every background layer that paints an image.
        public var backgrounds: [Background]
        /// The page's height at each measured viewport, in viewport order: the bottom of what
        /// its body held when it loaded. A rewrite that changes it moved the page.
        public var heights: [PageHeight]
        /// How many elements the body held when the page loaded, `<picture>` and `<source>`
        /// not counted: two loads' heights are compared only when they held as many (a
        /// script's content comes before the load event in one load and after it in another).
        public var loadedElements: Int?
        /// The `sizes` values dppx wrote on this page (a `sizes` found on a tag is dppx's to
        /// replace when it is one of them; any other is the page's own and wins).
        public var sizesWritten: [String]
        /// Set when the rewrite of this page was undone because a box moved: why. A page
        /// still hashing as recorded is then left alone without being measured again.
        public var restored: String?
        /// The viewport widths (CSS px at the default 16 px font) where the page's media
        /// queries written in `em` or `rem` flip: the `sizes` bounds there are written in `em`
        /// (`SizesFitter.emBreakpoints`). Absent when the page has none, and in files written
        /// before it was recorded.
        public var emBreakpoints: [Double]?
        /// True when its layout is sized by script, so it was measured at each width once its
        /// scripts had settled there (a slider that sets its slides' width on resize): checking
        /// a rewrite of it waits as long. Absent otherwise.
        public var settled: Bool?

        public init(hash: String, dependencies: [String], viewportHeight: Double, scrollbars: String, images: [Image],
                    backgrounds: [Background], heights: [PageHeight] = [], loadedElements: Int? = nil, sizesWritten: [String] = [],
                    restored: String? = nil, emBreakpoints: [Double]? = nil) {
            self.hash = hash
            self.dependencies = dependencies
            self.viewportHeight = viewportHeight
            self.scrollbars = scrollbars
            self.images = images
            self.backgrounds = backgrounds
            self.heights = heights
            self.loadedElements = loadedElements
            self.sizesWritten = sizesWritten
            self.restored = restored
            self.emBreakpoints = emBreakpoints
        }
    }

    /// The document's height at one viewport width, CSS px.
    public struct PageHeight: Codable, Hashable, Sendable {
        public var viewport: Double
        public var height: Double

        public init(viewport: Double, height: Double) {
            self.viewport = viewport
            self.height = height
        }

        /// `[viewport, height]`: a site's samples run to hundreds of thousands.
        public init(from decoder: any Decoder) throws {
            let numbers = try LayoutFile.numbers(from: decoder, count: 2)
            self.init(viewport: numbers[0], height: numbers[1])
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for number in [viewport, height] { try container.encode(number) }
        }
    }

    /// One `<img>` occurrence.
    public struct Image: Codable, Hashable, Sendable {
        /// The byte offset of its `<img` in the page's source: what identifies the occurrence
        /// (the same file twice on a page is two occurrences).
        public var offset: Int
        /// Its `src` as written.
        public var src: String
        /// Its box at each measured viewport, in viewport order.
        public var samples: [Sample]
        /// Set when checking the rewrite found this box moved with its measured `sizes`: its box
        /// depends on the image's natural width (a flex or grid item sized by its content, a
        /// float, a shrink-to-fit box), which a `sizes` changes. How it moved (`drawn 168x112 px
        /// at a 800 px viewport, 228x152 px before`); the occurrence is then left without `srcset`.
        public var unsized: String?
        /// Set when checking the rewrite found that a `<picture>` wrapper changes this image's
        /// computed style, its parent's or its box, or a script of the page selects it by its
        /// place among its parent's children (`.card > img`): why (`its computed `width` changed
        /// at a 320 px viewport`). With `--picture`, it is then written with `srcset` only.
        public var unwrapped: String?
        /// True when it had no box at some viewport and measuring showed it there: it was in an
        /// element of `display: none` (a carousel's other slide, a closed tab panel, a
        /// filtered-out grid item) beside a sibling of its kind that was shown, and its samples
        /// there are its box with that element displayed as the sibling is. Nil otherwise.
        public var shown: Bool?

        public init(offset: Int, src: String, samples: [Sample], unsized: String? = nil, unwrapped: String? = nil, shown: Bool? = nil) {
            self.offset = offset
            self.src = src
            self.samples = samples
            self.unsized = unsized
            self.unwrapped = unwrapped
            self.shown = shown == true ? true : nil
        }

        /// The widths its content is painted at (`Sample.paintedWidth`), for `SizesFitter`,
        /// `MeasuredLadder` and what a page view costs: what a `sizes` says and a file must be.
        /// 0 where it had no box (hidden there, and not shown by measuring): `SizesFitter` then
        /// writes the nearest width where it had one (`BoxSample.filledWhereHidden`).
        public var boxSamples: [BoxSample] { samples.map { BoxSample(viewport: $0.viewport, width: $0.paintedWidth) } }
    }

    /// A box at one viewport width, CSS px.
    public struct Sample: Codable, Hashable, Sendable {
        public var viewport: Double
        public var width: Double
        public var height: Double
        /// The width the image's content is painted at, when it is not the box's: in the box's
        /// content box (less padding and border), per its `object-fit`, from its natural size
        /// (`ObjectFit.painted`); wider than the box for `cover` of another aspect ratio than
        /// the box's. Nil when it is the box's width.
        public var painted: Double?
        /// Where the box is in the document (its left and top edges, scrolled to the top):
        /// what checking a rewrite compares besides its size.
        public var left: Double?
        public var top: Double?

        public init(viewport: Double, width: Double, height: Double, painted: Double? = nil, left: Double? = nil, top: Double? = nil) {
            self.viewport = viewport
            self.width = width
            self.height = height
            self.painted = painted == width ? nil : painted
            self.left = left
            self.top = top
        }

        /// The width the content is painted at: `painted`, else the box's.
        public var paintedWidth: Double { painted ?? width }

        /// `[viewport, width, height]`, and the painted width after them when it is not the
        /// box's. Where the box was is not kept: checking a rewrite measures both sides anew.
        public init(from decoder: any Decoder) throws {
            let numbers = try LayoutFile.numbers(from: decoder, count: 3...4)
            self.init(viewport: numbers[0], width: numbers[1], height: numbers[2], painted: numbers.count == 4 ? numbers[3] : nil)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for number in [viewport, width, height] + (painted.map { [$0] } ?? []) { try container.encode(number) }
        }
    }

    /// One layer of an element's `background-image` that paints an image.
    public struct Background: Codable, Hashable, Sendable {
        /// The element, as a selector path (`#id`, else `tag:nth-child(n)` steps from `html`).
        public var element: String
        /// The layer's index in the `background-image` list (0 is the top layer).
        public var layer: Int
        /// The image's URL path from the root (`/img/hero.jpg`), or the URL as computed when it
        /// is not under the measured origin.
        public var url: String
        /// The layer's computed `background-size`.
        public var size: String
        /// At each measured viewport: the positioning area (`width`, `height`) and the size the
        /// image is painted at.
        public var samples: [BackgroundSample]
        /// The file whose declaration paints the layer, relative to the root: a stylesheet, or
        /// the page itself for a `<style>` element or a `style` attribute; nil when not found.
        public var sheet: String?
        /// The selector of the style rule the declaration is in, as the browser serializes it
        /// (`.hero`, `main > .card`); nil for a `style` attribute or when not found.
        public var selector: String?
        /// The conditions of the at-rules the declaration is nested in inside its style rule,
        /// outermost first, as the browser serializes them (`@media (max-width: 600px)` for
        /// `.hero { @media (max-width: 600px) { background-image: ... } }`); nil for a
        /// declaration of the rule's own block.
        public var nested: [String]?
        /// The image function of each layer of the declaration the browser kept (`url`,
        /// `-webkit-linear-gradient`, `none`): which of a rule's `background` declarations it
        /// painted by when it dropped another (a vendor stack's unprefixed `linear-gradient(top,
        /// ...)` is invalid). Nil when not known.
        public var images: [String]?

        public init(element: String, layer: Int, url: String, size: String, samples: [BackgroundSample],
                    sheet: String? = nil, selector: String? = nil, nested: [String]? = nil, images: [String]? = nil) {
            self.element = element
            self.layer = layer
            self.url = url
            self.size = size
            self.samples = samples
            self.sheet = sheet
            self.selector = selector
            self.nested = nested
            self.images = images
        }

        /// The painted widths, for `SizesFitter` and `MeasuredLadder`.
        public var boxSamples: [BoxSample] { samples.map { BoxSample(viewport: $0.viewport, width: $0.paintedWidth) } }
    }

    /// A background layer at one viewport width, CSS px.
    public struct BackgroundSample: Codable, Hashable, Sendable {
        public var viewport: Double
        /// The background positioning area (per `background-origin`; the viewport for `fixed`).
        public var areaWidth: Double
        public var areaHeight: Double
        /// The image's painted size, from `BackgroundSize` and the image's natural size.
        public var paintedWidth: Double
        public var paintedHeight: Double
        /// Checking a rewrite, for a layer painted from a file an `image-set()` chose: the CSS px
        /// one pixel of that file is painted at, the larger of its width and height. A file of
        /// whole pixels has its master's aspect ratio within a pixel, so its painted size may be
        /// off by as much (`LayoutComparison`). Never written to the file.
        public var grain: Double?

        public init(viewport: Double, areaWidth: Double, areaHeight: Double, paintedWidth: Double, paintedHeight: Double,
                    grain: Double? = nil) {
            self.viewport = viewport
            self.areaWidth = areaWidth
            self.areaHeight = areaHeight
            self.paintedWidth = paintedWidth
            self.paintedHeight = paintedHeight
            self.grain = grain
        }
        /// `[viewport, areaWidth, areaHeight, paintedWidth, paintedHeight]`.
        public init(from decoder: any Decoder) throws {
            let numbers = try LayoutFile.numbers(from: decoder, count: 5)
            self.init(viewport: numbers[0], areaWidth: numbers[1], areaHeight: numbers[2], paintedWidth: numbers[3], paintedHeight: numbers[4])
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for number in [viewport, areaWidth, areaHeight, paintedWidth, paintedHeight] { try container.encode(number) }
        }
    }

    /// `count` numbers written as one JSON array: how every sample is kept.
    static func numbers(from decoder: any Decoder, count: Int) throws -> [Double] {
        try numbers(from: decoder, count: count...count)
    }

    /// As many numbers as `count` allows, written as one JSON array (no more are read).
    static func numbers(from decoder: any Decoder, count: ClosedRange<Int>) throws -> [Double] {
        var container = try decoder.unkeyedContainer()
        var numbers: [Double] = []
        while !container.isAtEnd, numbers.count <= count.upperBound { numbers.append(try container.decode(Double.self)) }
        guard count.contains(numbers.count), container.isAtEnd else {
            let expected = count.count == 1 ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a sample has \(expected) numbers, this one \(container.isAtEnd ? "\(numbers.count)" : "more")")
        }
        return numbers
    }
}
