import Hummingbird

/// Gives every successful or not-modified response that has no `Cache-Control` the configured
/// policy (`--cache-control`). Negotiated images and the server's own pages set their own.
public struct CacheControlMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: CachePolicy

    public init(policy: CachePolicy) {
        self.policy = policy
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        let status = response.status
        if (status == .ok || status == .partialContent || status == .notModified), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = policy.description
        }
        return response
    }
}
