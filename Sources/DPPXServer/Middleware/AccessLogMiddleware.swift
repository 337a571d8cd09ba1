import HTTPTypes
import Hummingbird
import Logging

/// Writes one `AccessLogEntry` per request through swift-log, once the body has been sent, so
/// bytes and duration are what the client really got.
public struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger

    public init(logger: Logger) {
        self.logger = logger
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let method = request.method.rawValue
        let target = request.uri.description
        let logger = self.logger
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            logger.info("\(AccessLogEntry(method: method, target: target, status: status, bytes: nil, variant: nil, duration: .now - start))")
            throw error
        }
        let status = response.status.code
        let variant = response.headers[.contentLocation]
        var logged = response
        let body = response.body
        logged.body = ResponseBody(contentLength: body.contentLength) { writer in
            let counter = ByteCountingWriter(parent: writer)
            let count = counter.count
            do {
                try await body.write(counter)
            } catch {
                logger.info("\(AccessLogEntry(method: method, target: target, status: status, bytes: count.value, variant: variant, duration: .now - start, aborted: true))")
                throw error
            }
            logger.info("\(AccessLogEntry(method: method, target: target, status: status, bytes: count.value, variant: variant, duration: .now - start))")
        }
        return logged
    }
}

/// Passes a body through to the real writer, counting its bytes.
struct ByteCountingWriter: ResponseBodyWriter {
    /// Shared with the middleware, which reads it once the body is written.
    final class Count: @unchecked Sendable {
        var value = 0
    }

    var parent: any ResponseBodyWriter
    let count = Count()

    init(parent: any ResponseBodyWriter) {
        self.parent = parent
    }

    mutating func write(_ buffer: ByteBuffer) async throws {
        count.value += buffer.readableBytes
        try await parent.write(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        try await parent.finish(trailingHeaders)
    }
}
