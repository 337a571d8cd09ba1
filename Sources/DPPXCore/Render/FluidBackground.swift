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
    /// resolution query (see `DensityMediaQuery`).
    public init(widths: [Int], legacy: Bool = false) {
        var steps: [Step] = []
        for (below, width) in zip(widths, widths.dropFirst()) {
            var alternatives: [String] = []
            var previousMinimum: Int?
            for density in Self.densities {
                // The viewport, in CSS px, past which `below` device pixels are too few.
                let minimum = below * 1000 / density.milli + 1
                guard minimum != previousMinimum else { continue }
                previousMinimum = minimum
                let viewport = "(min-width: \(minimum)px)"
                if density == Density(1) {
                    alternatives.append(viewport)
                } else {
                    let resolution = DensityMediaQuery(density: density, legacy: legacy).text
                    alternatives += resolution.split(separator: ", ").map { "\(viewport) and \($0)" }
                }
            }
            steps.append(Step(width: width, query: alternatives.joined(separator: ", ")))
        }
        self.steps = steps
    }
}
