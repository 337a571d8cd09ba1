import DPPXCore
import HummingbirdCore

extension ClientDPR {
    /// The device pixel ratio of `request`: from `?dpr=`, `Sec-CH-DPR`, `DPR` or the `dpr`
    /// cookie, in that order.
    init(_ request: ClientRequest) {
        let uri = request.uri
        // Parsing every query parameter costs; without the name anywhere in the target there is
        // nothing to find (names are compared undecoded).
        let query = uri.string.utf8.contains(UInt8(ascii: "?")) && uri.string.contains(DPRSource.queryName)
            ? uri.queryParameters[Substring(DPRSource.queryName)].map(String.init) : nil
        self.init(query: query, secCHDPR: request.secCHDPR, dpr: request.dpr, cookies: CookieHeader(request.cookie))
    }
}

extension ClientWidth {
    /// How wide a fluid image should be for `request` (see `ClientWidth`), `dpr` its ratio.
    init(_ request: ClientRequest, dpr: ClientDPR) {
        self.init(secCHWidth: request.secCHWidth, viewportWidth: request.secCHViewportWidth, dpr: dpr,
                  cookies: CookieHeader(request.cookie))
    }
}
