import DPPXCore
import HTTPTypes
import Hummingbird
import HummingbirdCore

extension ClientDPR {
    /// The device pixel ratio of a request for `uri` with `headers`: from `?dpr=`, `Sec-CH-DPR`,
    /// `DPR` or the `dpr` cookie, in that order.
    init(uri: URI, headers: HTTPFields) {
        // Most requests carry no query and no cookie: skip parsing what is not there.
        self.init(query: uri.query == nil ? nil : uri.queryParameters[Substring(DPRSource.queryName)].map(String.init),
                  secCHDPR: headers[values: .secCHDPR],
                  dpr: headers[values: .dpr],
                  cookies: CookieHeader(headers[.cookie] == nil ? [] : headers[values: .cookie]))
    }
}

extension Request {
    /// The request's device pixel ratio (see `ClientDPR`).
    var clientDPR: ClientDPR { ClientDPR(uri: uri, headers: headers) }
}
