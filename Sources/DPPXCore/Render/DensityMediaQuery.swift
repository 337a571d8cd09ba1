/// The media query that matches screens of at least one density.
///
/// `(-webkit-min-device-pixel-ratio: 1.5), (min-resolution: 1.5dppx)` reaches every browser
/// in use: WebKit-based ones know the first, the rest the second. The legacy form adds the
/// spellings of very old Firefox and Opera and the `dpi` unit that predates `dppx`.
public struct DensityMediaQuery: Hashable, Sendable {
    public let density: Density
    /// Also list `min--moz-device-pixel-ratio`, `-o-min-device-pixel-ratio` and `dpi`.
    public let legacy: Bool

    public init(density: Density, legacy: Bool = false) {
        self.density = density
        self.legacy = legacy
    }

    /// The query text, without `@media`.
    public var text: String {
        let value = density.description
        if !legacy {
            return "(-webkit-min-device-pixel-ratio: \(value)), (min-resolution: \(value)dppx)"
        }
        return [
            "(-webkit-min-device-pixel-ratio: \(value))",
            "(min--moz-device-pixel-ratio: \(value))",
            "(-o-min-device-pixel-ratio: \(ratio))",
            "(min-resolution: \(dpi)dpi)",
            "(min-resolution: \(value)dppx)",
        ].joined(separator: ", ")
    }

    /// Opera's ratio form, reduced: 1.5 -> `3/2`, 2 -> `2/1`, 2.625 -> `21/8`.
    var ratio: String {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let divisor = gcd(density.milli, 1000)
        return "\(density.milli / divisor)/\(1000 / divisor)"
    }

    /// Dots per CSS inch (96 per dppx): 1.5 -> `144`, 1.1 -> `105.6`.
    var dpi: String { Density(milli: density.milli * 96).description }
}
