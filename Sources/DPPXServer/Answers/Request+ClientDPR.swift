import DPPXCore
import HTTPTypes
import Hummingbird
import HummingbirdCore

extension ClientDPR {
    /// The device pixel ratio of a request for `uri` with `headers`: from `?dpr=`, `Sec-CH-DPR`,
    /// `DPR` or the `dpr` cookie, in that order.
    init(uri: URI, headers: HTTPFields) {
        self.init(uri: uri, secCHDPR: headers[values: .secCHDPR], dpr: headers[values: .dpr], cookie: headers[values: .cookie])
    }

    /// The same, from the headers `StaticResponder` gathered.
    init(_ request: FileRequest) {
        self.init(uri: request.uri, secCHDPR: request.secCHDPR, dpr: request.dpr, cookie: request.cookie)
    }

    private init(uri: URI, secCHDPR: [String], dpr: [String], cookie: [String]) {
        // Parsing every query parameter costs; without the name anywhere in the target there is
        // nothing to find (names are compared undecoded).
        let query = uri.string.utf8.contains(UInt8(ascii: "?")) && uri.string.contains(DPRSource.queryName)
            ? uri.queryParameters[Substring(DPRSource.queryName)].map(String.init) : nil
        self.init(query: query, secCHDPR: secCHDPR, dpr: dpr, cookies: CookieHeader(cookie))
    }
}

extension Request {
    /// The request's device pixel ratio (see `ClientDPR`).
    var clientDPR: ClientDPR { ClientDPR(uri: uri, headers: headers) }
}

extension ClientWidth {
    /// How wide a fluid image should be for `request` (see `ClientWidth`), `dpr` its ratio.
    init(_ request: FileRequest, dpr: ClientDPR) {
        self.init(secCHWidth: request.secCHWidth, viewportWidth: request.secCHViewportWidth, dpr: dpr,
                  cookies: CookieHeader(request.cookie))
    }
}
