/// Why the CSS or HTML for a set of images cannot be written.
public enum RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two images would get one class selector, so one rule would silently override the other.
    case selectorCollision(selector: String, first: String, second: String)

    public var description: String {
        switch self {
        case .selectorCollision(let selector, let first, let second):
            "\(first) and \(second) would both get the selector \(selector); rename one of them"
        }
    }
}
