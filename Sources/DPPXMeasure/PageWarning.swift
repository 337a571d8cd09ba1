/// A page measured as it stands, told with what a browser that loaded it whole would not have
/// had: its scripts threw (a third-party script that is not there, a bug of its own), its load
/// event never came, or none of its stylesheets loaded, all of other origins.
public struct PageWarning: Sendable, Hashable, CustomStringConvertible {
    /// The page, relative to the root.
    public var page: String
    public var kind: Kind

    public enum Kind: Sendable, Hashable {
        /// What its scripts threw, at most `PageMeasurer.maximumScriptErrors`.
        case scriptErrors([String])
        /// Its load event never came; when it was measured instead.
        case noLoadEvent(WithoutLoad)
        /// None of the stylesheets it links loaded, all of other origins (these URLs, at most 3).
        case noStylesheet([String])
    }

    /// When a page whose load event never came was measured, counted from its document's
    /// `DOMContentLoaded` (`PageMeasurer.settle`).
    public enum WithoutLoad: Sendable, Hashable {
        /// Once nothing had loaded or changed in it for `PageMeasurer.quietPeriod`, after this long.
        case quiet(after: Duration)
        /// At `PageMeasurer.settleLimit`: it was still loading or changing.
        case stillChanging(after: Duration)
    }

    public init(page: String, kind: Kind) {
        self.page = page
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .scriptErrors(let errors):
            return "\(page): measured as it stands after its scripts threw \(errors.joined(separator: "; ")) (a browser shows it so too: a third-party script that did not load, or a bug of the page's own; measuring reaches no other origin)"
        case .noLoadEvent(let when):
            let how: String
            switch when {
            case .quiet(let seconds):
                how = "measured as it stood once nothing had loaded or changed in it for \(Self.seconds(PageMeasurer.quietPeriod)) s, \(Self.seconds(seconds)) s after its document was parsed"
            case .stillChanging(let seconds):
                how = "it kept loading or changing, and was measured as it stood \(Self.seconds(seconds)) s after its document was parsed"
            }
            return "\(page): its load event never came (a frame, request or document that never finishes, such as a document.open() never closed); \(how)"
        case .noStylesheet(let urls):
            return "\(page): measured without its stylesheets, none of which loaded: \(urls.joined(separator: ", ")) (of other origins, which measuring does not reach; if that is the site's own address, give it as --base-url or [rewrite] base-url and they are answered from the root)"
        }
    }

    private static func seconds(_ duration: Duration) -> String {
        let parts = duration.components
        let value = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        return value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
