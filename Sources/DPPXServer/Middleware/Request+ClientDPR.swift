import DPPXCore
import HTTPTypes
import Hummingbird
import HummingbirdCore

extension ClientDPR {
    /// The device pixel ratio of a request for `uri` with `headers`: from `?dpr=`, `Sec-CH-DPR`,
    /// `DPR` or the `dpr` cookie, in that order.
    init(uri: URI, headers: HTTPFields) {
        self.init(query: uri.queryParameters[Substring(DPRSource.queryName)].map(String.init),
                  secCHDPR: headers[values: .secCHDPR],
                  dpr: headers[values: .dpr],
                  cookies: CookieHeader(headers[values: .cookie]))
    }
}

extension Request {
    /// The request's device pixel ratio (see `ClientDPR`).
    var clientDPR: ClientDPR { ClientDPR(uri: uri, headers: headers) }
}
