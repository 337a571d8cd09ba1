/// One measurement of an image's box: how wide the page drew it (CSS px) at one viewport width
/// (CSS px, the width `vw` and width media queries are counted against).
///
/// A box is sampled at many viewports; `SizesFitter` turns a page's samples of one occurrence
/// into the `sizes` attribute that gives the same width at each of them.
public struct BoxSample: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The viewport's width, CSS px.
    public var viewport: Double
    /// The box's width at that viewport, CSS px (fractional: layout has sub-pixel widths).
    public var width: Double

    public init(viewport: Double, width: Double) {
        self.viewport = viewport
        self.width = width
    }

    public var description: String { "\(SizesLength.number(width))px at \(SizesLength.number(viewport))px" }
}
