/// The media queries that give a fluid background the smallest file at least as wide as the
/// viewport times the device pixel ratio, the way a `background-size: cover` hero over the
/// whole viewport needs it.
///
/// The base rule names the narrowest file (a phone's); each wider rung gets one `@media` block
/// that matches a screen whose viewport is wider than the rung below divided by its density:
/// `(min-width: 442px), (min-width: 221px) and (min-resolution: 2dppx), ...`. Blocks come in
/// ascending width, so the last block that matches (the widest file needed) wins. Densities are
/// `densities`: a screen between two (2.25) is served as the lower one.
public struct FluidBackground: Hashable, Sendable {
    /// One rung above the narrowest, with the query that selects it.
    public struct Step: Hashable, Sendable {
        /// The rung's width in pixels.
        public let width: Int
        /// The query, without `@media`.
        public let query: String
    }

    /// The densities the queries distinguish: the common screen densities.
    public static let densities = [Density(1), Density(1.5), Density(2), Density(2.625), Density(3)]

    /// The rungs above the narrowest, ascending.
    public let steps: [Step]

    /// The steps of a ladder `widths` (ascending); `legacy` adds the old spellings of the
    /// resolution query (see `DensityMediaQuery`). With `cover`, the box the background covers,
    /// and `aspect`, the image's width and height, a rung is also needed when the box's height
    /// times the image's aspect is wider than the rung below: the queries then look at the
    /// viewport's height too (`min-height`), or at the resolution alone for a box of fixed size.
    public init(widths: [Int], legacy: Bool = false, cover: CoverBox? = nil, aspect: PixelSize? = nil) {
        let cover = cover ?? CoverBox(width: .viewport(percent: 100), height: .pixels(0))
        let aspect = aspect.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? PixelSize(width: 1, height: 1)
        var steps: [Step] = []
        for (below, width) in zip(widths, widths.dropFirst()) {
            var alternatives: [String] = []
            var previous: [String]?
            for density in Self.densities {
                let resolution = density == Density(1) ? [] : DensityMediaQuery(density: density, legacy: legacy).text
                    .split(separator: ", ").map(String.init)
                guard let features = Self.features(below: below, density: density, cover: cover, aspect: aspect) else {
                    // Every viewport at this density needs the rung, and so every denser screen.
                    if resolution.isEmpty {
                        alternatives = ["all"]
                    } else {
                        alternatives += resolution
                    }
                    break
                }
                // A denser screen needing the same viewport is already matched by the lower density.
                guard features != previous else { continue }
                previous = features
                for feature in features {
                    alternatives += resolution.isEmpty ? [feature] : resolution.map { "\(feature) and \($0)" }
                }
            }
            // A box of fixed size that no listed density fills past `below` never needs the rung.
            if !alternatives.isEmpty { steps.append(Step(width: width, query: alternatives.joined(separator: ", "))) }
        }
        self.steps = steps
    }

    /// The viewport features past which `below` device pixels are too few at `density`
    /// (`(min-width: 442px)`, `(min-height: 301px)`); empty when no viewport needs more, nil when
    /// every viewport does.
    private static func features(below: Int, density: Density, cover: CoverBox, aspect: PixelSize) -> [String]? {
        var features: [String] = []
        // The file's width the box needs, in device pixels, is (side in CSS px) x factor x
        // density: the width's factor is 1, the height's the image's width over its height.
        for (length, feature, numerator, denominator) in [(cover.width, "min-width", 1, 1),
                                                          (cover.height, "min-height", aspect.height, aspect.width)] {
            switch length {
            case .viewport(let percent):
                // side x percent/100 x (1/factor) x milli/1000 > below
                let minimum = below * 100_000 * numerator / (percent * denominator * density.milli) + 1
                features.append("(\(feature): \(minimum)px)")
            case .pixels(let pixels):
                if pixels * denominator * density.milli > below * 1000 * numerator { return nil }
            }
        }
        return features
    }
}
