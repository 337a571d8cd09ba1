import DPPXCore
import Hummingbird

extension Request {
    /// The request's device pixel ratio from `?dpr=`, `Sec-CH-DPR`, `DPR` or the `dpr` cookie,
    /// in that order (see `ClientDPR`).
    var clientDPR: ClientDPR {
        ClientDPR(query: uri.queryParameters[Substring(DPRSource.queryName)].map(String.init),
                  secCHDPR: headers[values: .secCHDPR],
                  dpr: headers[values: .dpr],
                  cookies: CookieHeader(headers[values: .cookie]))
    }
}
