/// Why measuring failed, as one line that names the browser, page or file and what to do.
public enum MeasureError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No Chromium to run.
    case noBrowser(String)
    /// The browser could not be started, or its DevTools connection failed.
    case browser(String)
    /// One page could not be measured: its path and why. The others are.
    case page(String, String)
    /// The layout file could not be read or written.
    case layoutFile(String, String)

    public var description: String {
        switch self {
        case .noBrowser(let message): return message
        case .browser(let message): return "Chromium: \(message)"
        case .page(let page, let message): return "\(page): not measured: \(message)"
        case .layoutFile(let path, let message): return "\(path): \(message)"
        }
    }
}
