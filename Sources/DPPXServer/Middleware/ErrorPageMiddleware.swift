import HTTPTypes
import Hummingbird

/// Turns "not found" and "bad request" into a readable HTML page (`ErrorPage`), whether a
/// middleware threw them or returned them.
public struct ErrorPageMiddleware<Context: RequestContext>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            guard response.status == .notFound, response.headers[.contentType] == nil else { return response }
            return page(for: request, status: .notFound, message: nil)
        } catch let error as any HTTPResponseError where error.status == .notFound || error.status == .badRequest {
            return page(for: request, status: error.status, message: (error as? HTTPError)?.body)
        }
    }

    private func page(for request: Request, status: HTTPResponse.Status, message: String?) -> Response {
        let detail = status == .notFound
            ? "there is no file at this path."
            : "this request cannot be served\(message.map { ": \($0)" } ?? "")."
        let page = ErrorPage(status: status.code, title: status.reasonPhrase, path: request.uri.path, detail: detail)
        let bytes = ByteBuffer(string: page.html)
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[.contentLength] = String(bytes.readableBytes)
        return Response(status: status, headers: headers, body: request.method == .head ? ResponseBody() : ResponseBody(byteBuffer: bytes))
    }
}
