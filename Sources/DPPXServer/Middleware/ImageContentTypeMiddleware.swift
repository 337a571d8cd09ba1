import DPPXCore
import Hummingbird

/// Gives image files the `Content-Type` Hummingbird's table lacks (AVIF, HEIC): without it a
/// browser sniffs, and some refuse to show an AVIF served without its type.
public struct ImageContentTypeMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard response.headers[.contentType] == nil, response.status == .ok || response.status == .partialContent,
              let dot = request.uri.path.lastIndex(of: "."),
              let format = ImageFormat(fileExtension: request.uri.path[request.uri.path.index(after: dot)...]) else {
            return response
        }
        response.headers[.contentType] = format.mediaType
        return response
    }
}
