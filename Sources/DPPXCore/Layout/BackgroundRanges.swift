/// The viewport ranges where a CSS rule painting fluid images needs the same files, from the
/// widths its layers were measured to paint at: what the rule's `@media` blocks of
/// `image-set()`s are written from.
///
/// At each measured viewport a layer painted `P` CSS px wide needs files `P`, `1.5 P`, `2 P` and
/// `3 P` pixels wide (the screens of 1x, 1.5x, 2x and 3x); each need takes the narrowest file at least
/// that wide, else the widest (the master: a wider file would only be upscaled). Neighbouring
/// viewports where each density takes the same file, for every layer, are one range (the same
/// files for other densities would not do: a screen picks by descriptor, not by need). Within a range each file
/// `F` is written with the descriptor `F / P`, `P` the widest painted width in the range (at its
/// last whole pixel, between two samples, for a layer that grows with the window): the
/// image's natural size is then `P`, and a screen of density `d` takes the same file at every
/// width of the range as at its widest.
///
/// A layer painted at its image's natural size somewhere in a range (`background-size: auto`,
/// `Layer.natural`) is the exception: there the descriptor sets the size it is painted at, so
/// each file is written with `F / N`, `N` the image's natural width in CSS px (the master's width
/// over its density), and the layer paints as on the untouched page. (Written against `P`, the
/// widest painted width of every element the rule paints, an `auto` band painted 1600x800 was
/// drawn 2560x1280 at a 1280 px viewport, where a `cover` element of the same rule painted the
/// image 2560 px wide.) Where a layer is painted so changes, so does the range.
///
/// Bounds are written as `SizesFitter` writes its breakpoints: a range ends just under the next
/// one's first viewport (`max-width: 767.98px`) and the next starts there (`min-width: 768px`),
/// as Bootstrap writes its own; the first range has no lower bound, the last no upper one. A
/// range narrower than `narrowestRange` is merged into a neighbour, and neighbours that serve
/// from the same files are one range: fewer blocks, and bounds that do not move with a pixel of
/// measuring jitter.
public struct BackgroundRanges: Hashable, Sendable {
    /// The densities each painted width is served at.
    public static let densities: [Double] = [1, 1.5, 2, 3]

    /// One layer of the rule: where it was measured, and its image's files.
    public struct Layer: Hashable, Sendable {
        /// The painted width at each measured viewport (the widest, when several elements or
        /// pages match the rule: `widest(of:)`).
        public var samples: [BoxSample]
        /// The widths of the image's files, pixels (the master's the widest).
        public var fileWidths: [Int]
        /// Where the layer is painted at its image's natural size (`background-size: auto`);
        /// nil when nowhere.
        public var natural: Natural?

        public init(samples: [BoxSample], fileWidths: [Int], natural: Natural? = nil) {
            self.samples = samples
            self.fileWidths = fileWidths
            self.natural = natural
        }
    }

    /// Where a layer is painted at its image's natural size, which an `image-set()`
    /// descriptor changes (the image's natural size is its file's width over the descriptor).
    public struct Natural: Hashable, Sendable {
        /// The image's natural width, CSS px: the master's width over its density.
        public var width: Double
        /// The viewports where an element of the rule paints the layer at that size (with
        /// the width painted there): a range holding any of them, or lying between two, is
        /// written against `width`.
        public var samples: [BoxSample]

        public init(width: Double, samples: [BoxSample]) {
            self.width = width
            self.samples = samples
        }
    }

    /// A file of one layer in one range, and its `image-set()` descriptor.
    public struct Candidate: Hashable, Sendable {
        /// The file's width, pixels: which file.
        public var width: Int
        /// The descriptor's number, as written (`1.0417`): the file's width over the range's
        /// widest painted width, or over the image's natural width where the layer is painted
        /// at its natural size (`Layer.natural`).
        public var density: String

        public init(width: Int, density: String) {
            self.width = width
            self.density = density
        }
    }

    /// Viewports that need the same files.
    public struct Range: Hashable, Sendable {
        /// The first viewport of the range as written (`768`), nil for the first range.
        public var minimumViewport: Double?
        /// The last viewport as written (`1199.98`), nil for the last range.
        public var maximumViewport: Double?
        /// Per layer, in the order given: its candidates, ascending by width; empty for a layer
        /// not measured in this range (its image is left as written).
        public var candidates: [[Candidate]]

        public init(minimumViewport: Double?, maximumViewport: Double?, candidates: [[Candidate]]) {
            self.minimumViewport = minimumViewport
            self.maximumViewport = maximumViewport
            self.candidates = candidates
        }

        /// `(min-width: 768px) and (max-width: 1199.98px)`; `all` for a range over every width.
        public var mediaQuery: String {
            let features = [minimumViewport.map { "(min-width: \(SizesLength.number($0))px)" },
                            maximumViewport.map { "(max-width: \(SizesLength.number($0))px)" }].compactMap { $0 }
            return features.isEmpty ? "all" : features.joined(separator: " and ")
        }
    }

    /// Ascending by viewport; empty when no layer was measured.
    public let ranges: [Range]

    /// The ranges of a rule whose fluid layers are `layers`.
    public init(layers: [Layer]) {
        let sampled = Set(layers.flatMap { $0.samples.map(\.viewport) }).filter(\.isFinite).sorted()
        // At each viewport, per layer: its painted width and the files its needs take, at the
        // samples and where a need passes a file between two of them.
        let series = layers.map { Series($0.samples) }
        let viewports = Array(Set(sampled).union(Self.passes(between: sampled, series: series, fileWidths: layers.map(\.fileWidths)))).sorted()
        let painted = viewports.map { viewport in series.map { $0.width(at: viewport) } }
        let files = viewports.indices.map { index in
            zip(layers, painted[index]).map { layer, width in width.map { Self.files(for: $0, among: layer.fileWidths) } ?? [] }
        }
        // At each viewport, per layer: whether an element paints it at its natural size there.
        let naturalSeries = layers.map { layer in layer.natural.map { Series($0.samples) } }
        let natural = viewports.map { viewport in naturalSeries.map { $0?.width(at: viewport) != nil } }
        // Runs of viewports where every layer takes the same files, painted as it was.
        var spans: [ClosedRange<Int>] = []
        var start = 0
        while start < viewports.count {
            var end = start
            while end + 1 < viewports.count, files[end + 1] == files[start], natural[end + 1] == natural[start] { end += 1 }
            spans.append(start...end)
            start = end + 1
        }
        // Where a span of viewports ends: just under the next span's first viewport (or at its
        // own last one, where the next is within a rounding step), nil for the last.
        func upperBound(_ span: ClosedRange<Int>) -> Double? {
            let end = span.upperBound
            guard end + 1 < viewports.count else { return nil }
            return viewports[end + 1] - viewports[end] > 0.04 ? viewports[end + 1] - 0.02 : viewports[end]
        }
        // Per layer, the widest the layer is painted in `span`'s windows of whole pixels: at one
        // of its samples, or at the last whole pixel before its upper bound (a fluid layer is
        // wider there than at any sample of the span). A window a fraction of a pixel wider (a
        // zoomed page) may need up to a pixel more than its file.
        func widestPainted(_ span: ClosedRange<Int>, _ layer: Int) -> Double {
            let sampled = span.compactMap { painted[$0][layer] }.max() ?? 0
            guard sampled > 0, let bound = upperBound(span) else { return sampled }
            let edge = max(viewports[span.upperBound], bound.rounded(.down))
            guard let width = series[layer].width(at: edge), width.isFinite else { return sampled }
            return max(sampled, width)
        }
        // Per layer, the file each density takes at the layer's widest in `span`: what every
        // viewport of the span is served from (the descriptors are written against that width).
        func widestFiles(_ span: ClosedRange<Int>) -> [[Int]] {
            layers.indices.map { layer in
                let widest = widestPainted(span, layer)
                return widest > 0 ? Self.files(for: widest, among: layers[layer].fileWidths) : []
            }
        }
        // Per layer, the natural width its descriptors are written against in `span`, where
        // an element paints it at its natural size there; nil elsewhere.
        func naturalWidths(_ span: ClosedRange<Int>) -> [Double?] {
            layers.indices.map { layer in
                guard let width = layers[layer].natural?.width, width.isFinite, width > 0, span.contains(where: { natural[$0][layer] }) else { return nil }
                return width
            }
        }
        struct Served: Equatable {
            var files: [[Int]]
            var natural: [Double?]
        }
        spans = Self.merged(spans, viewports: viewports, painted: { painted[$0].reduce(0) { $0 + ($1 ?? 0) } }) { span in
            Served(files: widestFiles(span), natural: naturalWidths(span))
        }
        var ranges: [Range] = []
        for span in spans {
            let chosen = widestFiles(span)
            let naturals = naturalWidths(span)
            let candidates = layers.indices.map { layer -> [Candidate] in
                let widest = widestPainted(span, layer)
                guard widest > 0 else { return [] }
                let across = naturals[layer] ?? widest
                return Set(chosen[layer]).sorted().map { Candidate(width: $0, density: Self.density(file: $0, painted: across)) }
            }
            let minimum = ranges.isEmpty ? nil : viewports[span.lowerBound]
            ranges.append(Range(minimumViewport: minimum, maximumViewport: upperBound(span), candidates: candidates))
        }
        self.ranges = ranges
    }

    /// Ranges narrower than this many viewport px are merged into a neighbour: a range that
    /// holds one refined sample (`(min-width: 340px) and (max-width: 340.98px)`) moves with
    /// measuring jitter from run to run and costs a block of CSS for a pixel of windows.
    public static let narrowestRange = 8.0

    /// `spans` (runs of `viewports` indices) with each narrower than `narrowestRange` merged
    /// into the neighbour on its side of the layout's breakpoint (the one whose `painted` width,
    /// all layers together, continues its own: the same piece of the layout), then neighbours
    /// where each density takes the same files, painted as it was (`served`), merged (a narrow
    /// range between two alike). Every viewport stays served: a merged range is written
    /// against its widest painted width.
    static func merged<Served: Equatable>(_ spans: [ClosedRange<Int>], viewports: [Double], painted: (Int) -> Double,
                                          served: (ClosedRange<Int>) -> Served) -> [ClosedRange<Int>] {
        var spans = spans
        func width(_ index: Int) -> Double {
            let span = spans[index]
            let next = span.upperBound + 1 < viewports.count ? viewports[span.upperBound + 1] : viewports[span.upperBound] + narrowestRange
            return next - viewports[span.lowerBound]
        }
        var index = 0
        while spans.count > 1, index < spans.count {
            guard width(index) < narrowestRange else { index += 1; continue }
            let span = spans[index]
            let other: Int
            if index == 0 { other = 1 } else if index + 1 == spans.count { other = index - 1 } else {
                let before = abs(painted(span.lowerBound) - painted(spans[index - 1].upperBound))
                let after = abs(painted(spans[index + 1].lowerBound) - painted(span.upperBound))
                other = after <= before ? index + 1 : index - 1
            }
            let (low, high) = (min(index, other), max(index, other))
            spans[low] = spans[low].lowerBound...spans[high].upperBound
            spans.remove(at: high)
            index = max(0, low - 1)
        }
        var result: [ClosedRange<Int>] = []
        for span in spans {
            if let last = result.last, served(last) == served(span) {
                result[result.count - 1] = last.lowerBound...span.upperBound
            } else {
                result.append(span)
            }
        }
        return result
    }

    /// At each viewport any series was measured at, the widest width any series gives there: the
    /// painted widths of one rule over every element and page it paints. A series gives its
    /// sample, or between two samples the line through them (layouts are linear between
    /// breakpoints, and measuring pins those); nothing outside its own viewports (an element not
    /// shown there).
    public static func widest(of series: [[BoxSample]]) -> [BoxSample] {
        let viewports = Set(series.flatMap { $0.map(\.viewport) }).filter(\.isFinite).sorted()
        let prepared = series.map(Series.init)
        return viewports.compactMap { viewport in
            prepared.compactMap { $0.width(at: viewport) }.max().map { BoxSample(viewport: viewport, width: $0) }
        }
    }

    /// One series of samples, sorted once (painted widths that are not finite or not positive
    /// left out), and its width at any viewport found by a binary search: a rule painting on
    /// many pages has thousands of samples, asked at thousands of viewports.
    struct Series {
        private let ordered: [BoxSample]

        init(_ samples: [BoxSample]) {
            ordered = samples.filter { $0.viewport.isFinite && $0.width.isFinite && $0.width > 0 }.sorted { $0.viewport < $1.viewport }
        }

        /// The width at `viewport`: measured (the last sample there), or interpolated inside the
        /// series' span; nil outside it.
        func width(at viewport: Double) -> Double? {
            // The first sample beyond `viewport`.
            var low = 0, high = ordered.count
            while low < high {
                let middle = (low + high) / 2
                if ordered[middle].viewport > viewport { high = middle } else { low = middle + 1 }
            }
            if low > 0, ordered[low - 1].viewport == viewport { return ordered[low - 1].width }
            guard low > 0, low < ordered.count else { return nil }
            let a = ordered[low - 1], b = ordered[low]
            return a.width + (b.width - a.width) * (viewport - a.viewport) / (b.viewport - a.viewport)
        }
    }

    /// Where, between two neighbouring `samples`, a layer's need at some density passes one of
    /// its files, so the file taken changes there and not at the next sample: the first whole
    /// pixel after each such place, where a range starts. Layouts are linear between samples
    /// (breakpoints are refined to samples a fraction of a pixel apart), so the place is found
    /// on the line through the two. Whole pixels keep the bounds from moving with a measuring
    /// jitter of a fraction of a pixel, and every window of whole pixels is served exactly.
    static func passes(between samples: [Double], series: [Series], fileWidths: [[Int]]) -> Set<Double> {
        var starts = Set<Double>()
        for (a, b) in zip(samples, samples.dropFirst()) where b - a > 0.04 {
            for layer in series.indices {
                guard let widthA = series[layer].width(at: a), let widthB = series[layer].width(at: b), widthA != widthB else { continue }
                let (low, high) = (min(widthA, widthB), max(widthA, widthB))
                for density in densities {
                    // A need within 1/100 px of a file takes that file (`files`).
                    for file in fileWidths[layer].filter({ $0 > 0 }).sorted().dropLast()
                    where low * density - 0.01 <= Double(file) && Double(file) < high * density - 0.01 {
                        let width = (Double(file) + 0.01) / density
                        let place = a + (width - widthA) * (b - a) / (widthB - widthA)
                        let start = place.rounded(.down) + 1
                        if place.isFinite, start < b - 0.02 { starts.insert(start) }
                    }
                }
            }
        }
        return starts
    }

    /// The file a layer painted `painted` CSS px wide takes at each of `densities`.
    static func files(for painted: Double, among widths: [Int]) -> [Int] {
        let ascending = widths.filter { $0 > 0 }.sorted()
        guard let widest = ascending.last else { return [] }
        let taken = densities.map { density in
            let need = painted * density - 0.01
            return ascending.first { Double($0) >= need } ?? widest
        }
        return taken
    }

    /// `file / painted` with the fewest decimals (3 to 8) that give the painted width within
    /// 1/200 px, as `ImageCandidates` writes an exact density. Rounding never takes it under a
    /// density it serves: 1, 1.5 and 2 are written exactly.
    static func density(file: Int, painted: Double) -> String {
        let exact = Double(file) / painted
        var decimals = 3
        while decimals < 8, abs(Double(file) / SizesLength.rounded(exact, decimals: decimals) - painted) * 200 >= 1 { decimals += 1 }
        return SizesLength.number(exact, decimals: decimals)
    }
}
