/// A layer's computed `background-size`, and the size it paints an image at (CSS Backgrounds
/// and Borders 3, "background-size").
///
/// A measured page reports each painting layer's computed value and its background positioning
/// area; the painted size is the width the layer's file must have at 1x, as a box's width is for
/// an `<img>`.
public enum BackgroundSize: Hashable, Sendable {
    /// Scaled, keeping its aspect ratio, to the smallest size that covers the area.
    case cover
    /// Scaled, keeping its aspect ratio, to the largest size that fits inside the area.
    case contain
    /// A width and a height, each a length, a percentage of the area or `auto`.
    case explicit(width: Component, height: Component)

    /// One side of an explicit size.
    public enum Component: Hashable, Sendable {
        case auto
        case pixels(Double)
        /// Of the positioning area's side.
        case percent(Double)
    }

    /// Whether the layer paints the image at its natural size (`auto`, `auto auto`): the size
    /// an `image-set()` descriptor changes, where every other size scales the image to the
    /// area or to a length (one `auto` side follows the other by the aspect ratio).
    public var isNatural: Bool { self == .explicit(width: .auto, height: .auto) }

    /// Reads a computed value: `cover`, `contain`, `auto`, `100px`, `50% auto`, `120px 80px`.
    /// A computed style has only px and %; nil for anything else.
    public init?(computed text: String) {
        let words = text.lowercased().split(separator: " ", omittingEmptySubsequences: true)
        func component(_ word: Substring) -> Component? {
            if word == "auto" { return .auto }
            if word.hasSuffix("px"), let value = Double(word.dropLast(2)), value.isFinite, value >= 0 { return .pixels(value) }
            if word.hasSuffix("%"), let value = Double(word.dropLast()), value.isFinite, value >= 0 { return .percent(value) }
            return nil
        }
        switch words.count {
        case 1 where words[0] == "cover": self = .cover
        case 1 where words[0] == "contain": self = .contain
        case 1:
            guard let width = component(words[0]) else { return nil }
            self = .explicit(width: width, height: .auto)
        case 2:
            guard let width = component(words[0]), let height = component(words[1]) else { return nil }
            self = .explicit(width: width, height: height)
        default:
            return nil
        }
    }

    /// The size, in CSS px, at which a layer paints an image of `image`'s aspect (its natural
    /// size at 1x, CSS px) in a positioning `area` (CSS px). Nil when it paints nothing (an
    /// empty area or image, or a size under `LayoutLimits.smallestPainted`, which no screen
    /// shows).
    public func painted(image: (width: Double, height: Double), area: (width: Double, height: Double)) -> (width: Double, height: Double)? {
        guard image.width > 0, image.height > 0, image.width.isFinite, image.height.isFinite,
              area.width.isFinite, area.height.isFinite, area.width >= 0, area.height >= 0 else { return nil }
        let aspect = image.width / image.height
        switch self {
        case .cover, .contain:
            guard area.width > 0, area.height > 0 else { return nil }
            let scales = (area.width / image.width, area.height / image.height)
            let scale = self == .cover ? max(scales.0, scales.1) : min(scales.0, scales.1)
            let size = (image.width * scale, image.height * scale)
            guard size.0 >= LayoutLimits.smallestPainted, size.1 >= LayoutLimits.smallestPainted else { return nil }
            return size
        case .explicit(let width, let height):
            func resolve(_ component: Component, side: Double) -> Double? {
                switch component {
                case .auto: return nil
                case .pixels(let value): return value
                case .percent(let value): return side * value / 100
                }
            }
            let size: (Double, Double)
            switch (resolve(width, side: area.width), resolve(height, side: area.height)) {
            case (let width?, let height?): size = (width, height)
            case (let width?, nil): size = (width, width / aspect)
            case (nil, let height?): size = (height * aspect, height)
            case (nil, nil): size = (image.width, image.height)
            }
            guard size.0 >= LayoutLimits.smallestPainted, size.1 >= LayoutLimits.smallestPainted else { return nil }
            return size
        }
    }
}
