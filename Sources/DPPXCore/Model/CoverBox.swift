/// The box a fluid background covers with `background-size: cover`, from a rule's `cover`:
/// `"100vw 100vh"` (a full-screen hero), `"100vw 600px"`, or one value, the height of a box as
/// wide as the viewport (`"100vh"`, `"826px"`).
///
/// `cover` scales the image until it fills both sides, so a box taller than the image's aspect
/// needs a file wider than the box: its height times the image's width over its height. The
/// stylesheet's queries then look at both viewport sides (see `FluidBackground`).
public struct CoverBox: Hashable, Sendable, CustomStringConvertible {
    /// One side of the box.
    public enum Length: Hashable, Sendable {
        /// A share of the viewport's side, in per cent: `100vw`, `80vh`.
        case viewport(percent: Int)
        /// A fixed length in CSS px.
        case pixels(Int)
    }

    /// The box's width: `vw` or `px`.
    public let width: Length
    /// The box's height: `vh` or `px`.
    public let height: Length

    public init(width: Length, height: Length) {
        self.width = width
        self.height = height
    }

    /// Parses `"100vw 100vh"`, `"100vw 600px"`, `"100vh"` or `"600px"` (one value: the height,
    /// the width being the viewport's); nil when `text` is none of these.
    public init?(parsing text: String) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        func length(_ part: Substring, viewportUnit: String) -> Length? {
            let lower = part.lowercased()
            for (unit, viewport) in [(viewportUnit, true), ("px", false)] where lower.hasSuffix(unit) {
                let digits = lower.dropLast(unit.count)
                guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                      let value = Int(digits), value > 0 else { return nil }
                if viewport { return value <= 1000 ? .viewport(percent: value) : nil }
                return value <= WidthRequest.maximumWidth ? .pixels(value) : nil
            }
            return nil
        }
        switch parts.count {
        case 1:
            guard let height = length(parts[0], viewportUnit: "vh") else { return nil }
            self.init(width: .viewport(percent: 100), height: height)
        case 2:
            guard let width = length(parts[0], viewportUnit: "vw"), let height = length(parts[1], viewportUnit: "vh") else { return nil }
            self.init(width: width, height: height)
        default:
            return nil
        }
    }

    /// `100vw 100vh`.
    public var description: String {
        func text(_ length: Length, _ unit: String) -> String {
            switch length {
            case .viewport(let percent): "\(percent)\(unit)"
            case .pixels(let pixels): "\(pixels)px"
            }
        }
        return "\(text(width, "vw")) \(text(height, "vh"))"
    }

    /// What a setting's value must look like, for error messages.
    public static let expected = "a box as \"WIDTH HEIGHT\" in vw, vh or px, or a height alone, e.g. cover = \"100vw 100vh\" or cover = \"600px\""
}
