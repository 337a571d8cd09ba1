import HTTPTypes
import Hummingbird

/// Adds `Accept-CH: Sec-CH-DPR, DPR` to every HTML response, so Chromium-based browsers send
/// their device pixel ratio with the page's image and CSS requests (the page's own first request
/// cannot carry it: the browser learns the opt-in from this response).
public struct ClientHintsMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The hints asked for.
    public static var acceptCH: String { "Sec-CH-DPR, DPR" }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers.isHTMLPage {
            response.headers[.acceptCH] = Self.acceptCH
        }
        return response
    }
}
