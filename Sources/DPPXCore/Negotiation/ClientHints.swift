/// What one request says about its client that an image answer may depend on: the DPR (from
/// `?dpr=`, `Sec-CH-DPR`, `DPR`, the `dpr` cookie), the width a fluid image should have
/// (`Sec-CH-Width`, `Sec-CH-Viewport-Width`, the `vw` cookie) and `Accept`.
///
/// The server builds it from an image request and the `/_dppx/` inspector from its page
/// request, so both hand `VariantNegotiator` the same reading of the same header lines. The
/// width is worked out only when asked for (only fluid images need it).
public struct ClientHints: Sendable {
    /// The device pixel ratio and the sources consulted to find it.
    public let dpr: ClientDPR
    /// The formats the client takes.
    public let accept: AcceptHeader
    private let widthHints: WidthHints

    private enum WidthHints: Sendable {
        case lines(secCHWidth: [String], viewportWidth: [String], cookie: [String])
        case read(ClientWidth)
    }

    /// Reads the hints of one request: `query` is the `dpr` query parameter's value, the others
    /// every line of each header, in order (a header sent twice is a list, which hints may not be).
    public init(query: String?, secCHDPR: [String] = [], dpr: [String] = [], secCHWidth: [String] = [],
                viewportWidth: [String] = [], cookie: [String] = [], accept: [String] = []) {
        self.dpr = ClientDPR(query: query, secCHDPR: secCHDPR, dpr: dpr, cookies: CookieHeader(cookie))
        self.accept = AcceptHeader(accept)
        self.widthHints = .lines(secCHWidth: secCHWidth, viewportWidth: viewportWidth, cookie: cookie)
    }

    /// Hints already read; `width` nil: the client said nothing about it (`ClientWidth.unknown`).
    public init(dpr: ClientDPR, accept: AcceptHeader, width: ClientWidth? = nil) {
        self.dpr = dpr
        self.accept = accept
        self.widthHints = .read(width ?? .unknown)
    }

    /// How many device pixels wide a fluid image should be for this request.
    public var width: ClientWidth {
        switch widthHints {
        case .read(let width): width
        case .lines(let secCHWidth, let viewportWidth, let cookie):
            ClientWidth(secCHWidth: secCHWidth, viewportWidth: viewportWidth, dpr: dpr, cookies: CookieHeader(cookie))
        }
    }
}
