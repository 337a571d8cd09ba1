/// A width in a `sizes` attribute that grows linearly with the viewport: `perViewport` vw plus
/// `pixels` px, written in the shortest CSS that says it (`426px`, `33.3333vw`,
/// `calc(33.3333vw - 12px)`).
///
/// Every layout dppx measures between two breakpoints is of this form (fixed widths, fractions of
/// the viewport, fractions less gutters and paddings), so one type can both be fitted to
/// measurements and evaluated back at each measured viewport to check the fit.
public struct SizesLength: Hashable, Sendable, CustomStringConvertible {
    /// vw units (per cent of the viewport's width).
    public var perViewport: Double
    /// px added to them (negative for gutters).
    public var pixels: Double

    public init(perViewport: Double = 0, pixels: Double = 0) {
        self.perViewport = perViewport
        self.pixels = pixels
    }

    /// A fixed width.
    public static func pixels(_ value: Double) -> SizesLength { SizesLength(pixels: value) }
    /// A share of the viewport.
    public static func viewport(_ value: Double) -> SizesLength { SizesLength(perViewport: value) }

    /// The length at a viewport `viewport` CSS px wide.
    public func width(atViewport viewport: Double) -> Double {
        perViewport * viewport / 100 + pixels
    }

    /// The CSS text: the coefficients as written, which `SizesValue` evaluates back.
    public var description: String {
        let vw = Self.number(perViewport, decimals: 4)
        let px = Self.number(abs(pixels))
        if vw == "0" { return "\(Self.number(pixels))px" }
        if px == "0" { return "\(vw)vw" }
        return "calc(\(vw)vw \(pixels < 0 ? "-" : "+") \(px)px)"
    }

    /// The length with its coefficients rounded as `description` writes them, so that what is
    /// checked is what the browser reads.
    public var asWritten: SizesLength {
        SizesLength(perViewport: Self.rounded(perViewport, decimals: 4), pixels: Self.rounded(pixels, decimals: 2))
    }

    /// `value` with at most `decimals` decimals and no trailing zeros: `426`, `33.3333`, `-12.5`.
    /// A number too large for plain digits (from 10^15) is written in CSS's exponent form
    /// (`1e+19`), which `SizesValue` and browsers read; anything not finite is `0`. Measurements
    /// are checked before they get here (`LayoutLimits`); this only keeps the writing total.
    public static func number(_ value: Double, decimals: Int = 2) -> String {
        let rounded = rounded(value, decimals: decimals)
        guard abs(rounded) < 1e15 else { return String(rounded) }
        if rounded == rounded.rounded() { return String(Int(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return String(Int(rounded.rounded())) }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// `value` rounded to `decimals` decimals; 0 for a value that is not finite, and a value too
    /// large to have decimals (2^52 and up once scaled) as it is.
    static func rounded(_ value: Double, decimals: Int) -> Double {
        guard value.isFinite else { return 0 }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = value * scale
        guard abs(scaled) < 4_503_599_627_370_496 else { return value }
        let result = scaled.rounded() / scale
        return result == 0 ? 0 : result
    }
}
