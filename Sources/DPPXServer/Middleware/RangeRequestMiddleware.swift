import HTTPTypes
import Hummingbird

/// Resolves `Range` requests before `FileMiddleware` sees them (see `ByteRange`): suffix
/// ranges become explicit ones, a range past the end is a 416 with `Content-Range: bytes */SIZE`,
/// and anything else it cannot serve exactly (several ranges, garbage, HEAD) gets the whole file.
public struct RangeRequestMiddleware<Context: RequestContext>: RouterMiddleware {
    let files: RootedFileSystem

    public init(files: RootedFileSystem) {
        self.files = files
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.range] else { return try await next(request, context) }
        var head = request.head
        guard request.method == .get,
              let path = request.uri.path.removingPercentEncoding, path.hasPrefix("/"),
              let size = files.regularFileSize(String(path.dropFirst()))
        else {
            if request.method == .head { head.headerFields[.range] = nil }
            return try await next(Request(head: head, body: request.body), context)
        }
        switch ByteRange(header: header, size: size) {
        case .satisfiable(let range):
            head.headerFields[.range] = "bytes=\(range.lowerBound)-\(range.upperBound)"
        case .ignored:
            head.headerFields[.range] = nil
            head.headerFields[.ifRange] = nil
        case .unsatisfiable:
            if head.headerFields[.ifRange] != nil {
                // The client's copy may be outdated: the whole current file is the right answer.
                head.headerFields[.range] = nil
                head.headerFields[.ifRange] = nil
            } else {
                throw HTTPError(.rangeNotSatisfiable, headers: [.contentRange: "bytes */\(size)"])
            }
        }
        return try await next(Request(head: head, body: request.body), context)
    }
}
