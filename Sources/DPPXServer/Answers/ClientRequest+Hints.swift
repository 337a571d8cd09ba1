import DPPXCore
import HummingbirdCore

extension ClientHints {
    /// The hints of a request: `?dpr=`, `Sec-CH-DPR`, `DPR`, `Sec-CH-Width`,
    /// `Sec-CH-Viewport-Width`, `Cookie` and `Accept`.
    init(_ request: ClientRequest) {
        self.init(query: Self.dprParameter(of: request.uri), secCHDPR: request.secCHDPR, dpr: request.dpr,
                  secCHWidth: request.secCHWidth, viewportWidth: request.secCHViewportWidth, cookie: request.cookie,
                  accept: request.accept)
    }

    /// The `dpr` query parameter. Parsing every query parameter costs; without the name anywhere
    /// in the target there is nothing to find (names are compared undecoded).
    private static func dprParameter(of uri: URI) -> String? {
        uri.string.utf8.contains(UInt8(ascii: "?")) && uri.string.contains(DPRSource.queryName)
            ? uri.queryParameters[Substring(DPRSource.queryName)].map(String.init) : nil
    }
}
