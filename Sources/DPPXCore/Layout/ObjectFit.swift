/// An `<img>`'s computed `object-fit`, and the size its content is painted at in its content
/// box (CSS Images 3, "object-fit").
///
/// A box records where the page lays the image out; what the image needs is the width its
/// content is painted at: a square card of a 3:2 photo with `object-fit: cover` paints it 1.5
/// times as wide as the card, and a `sizes` of the card's width sends a file 1.5 times too
/// narrow. `object-position` only moves the painted content inside the box (what is cut off
/// where), never scales it, so the painted size does not depend on it; `aspect-ratio` and every
/// other property that shapes the box are in the box measured.
public enum ObjectFit: String, Hashable, Sendable, CaseIterable {
    /// Stretched over the content box (the initial value).
    case fill
    /// Scaled, keeping its aspect ratio, to the largest size that fits inside the box.
    case contain
    /// Scaled, keeping its aspect ratio, to the smallest size that covers the box.
    case cover
    /// At its natural size.
    case none
    /// `none` or `contain`, whichever is smaller.
    case scaleDown = "scale-down"

    /// Reads a computed value (`cover`, `scale-down`); nil for anything else.
    public init?(computed text: String) {
        self.init(rawValue: text.lowercased())
    }

    /// The size, in CSS px, at which an image of natural size `natural` (CSS px: a fluid
    /// master's size, a density image's 1x box) is painted in a content `box` (the `<img>`'s
    /// box less its padding and border, CSS px). `fill` needs no natural size; for the others,
    /// without one (nil, zero, or not finite) the content is taken as painted over the box, as
    /// a browser paints an image it has no size for. Never NaN: every side is finite and at
    /// least 0 when the box's are.
    public func painted(box: (width: Double, height: Double), natural: (width: Double, height: Double)?) -> (width: Double, height: Double) {
        let box = (width: Self.side(box.width), height: Self.side(box.height))
        guard self != .fill, let natural, natural.width.isFinite, natural.height.isFinite, natural.width > 0, natural.height > 0 else {
            return box
        }
        // Each side's scale to the box: the other side then follows the natural aspect ratio.
        let scales = (width: box.width / natural.width, height: box.height / natural.height)
        func scaled(_ scale: Double) -> (width: Double, height: Double) { (natural.width * scale, natural.height * scale) }
        switch self {
        case .fill: return box
        case .contain: return scaled(min(scales.width, scales.height))
        case .cover: return scaled(max(scales.width, scales.height))
        case .none: return natural
        case .scaleDown: return scaled(min(1, scales.width, scales.height))
        }
    }

    /// A side of a box as a length: not finite or negative is 0.
    private static func side(_ value: Double) -> Double { value.isFinite && value > 0 ? value : 0 }
}
