/// Where a request's device pixel ratio was read from. The cases are listed in the order they
/// are consulted: the first one holding a valid value decides.
public enum DPRSource: String, Sendable, CaseIterable, CustomStringConvertible {
    /// `?dpr=2` in the URL: explicit, and already part of every cache's key.
    case query
    /// `Sec-CH-DPR: 2`, the client hint Chromium sends once the page opted in with `Accept-CH`.
    case secCHDPR
    /// `DPR: 2`, the legacy spelling of the same hint.
    case dpr
    /// The `dpr` cookie `/_dppx/dpr.js` sets in browsers that send no hints.
    case cookie
    /// Nothing valid was sent: density 1.
    case none

    /// The cookie `/_dppx/dpr.js` sets.
    public static let cookieName = "dpr"
    /// The query parameter that overrides every hint.
    public static let queryName = "dpr"

    /// The request header a cache must key on once this source was consulted; nil for the query
    /// (already in the URL) and for `none`.
    public var headerName: String? {
        switch self {
        case .query, .none: nil
        case .secCHDPR: "Sec-CH-DPR"
        case .dpr: "DPR"
        case .cookie: "Cookie"
        }
    }

    public var description: String {
        switch self {
        case .query: "?\(Self.queryName)="
        case .secCHDPR: "Sec-CH-DPR"
        case .dpr: "DPR"
        case .cookie: "\(Self.cookieName) cookie"
        case .none: "default"
        }
    }
}
