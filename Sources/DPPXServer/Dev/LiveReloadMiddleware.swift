import HTTPTypes
import Hummingbird

/// Dev mode only: adds the live-reload script tag to HTML pages (before the last `</body>`,
/// or at the end when there is none) and marks them `no-store`, so a reload always shows the
/// latest build. Partial, conditional and huge responses pass through unchanged.
public struct LiveReloadMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Pages larger than this are sent as they are.
    static var maximumPageSize: Int { 8 * 1024 * 1024 }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        guard response.status == .ok, response.headers.isHTMLPage,
              let length = response.body.contentLength, length <= Self.maximumPageSize
        else { return response }
        response.headers[.eTag] = nil
        response.headers[.lastModified] = nil
        response.headers[.cacheControl] = "no-store"
        response.headers[.acceptRanges] = nil
        if request.method == .head {
            response.headers[.contentLength] = String(length + LiveReloadScript.tag.utf8.count)
            return response
        }
        let page = try await Self.collect(response.body, limit: Self.maximumPageSize)
        let injected = ByteBuffer(bytes: Self.inject(Array(page.readableBytesView)))
        response.headers[.contentLength] = String(injected.readableBytes)
        response.body = ResponseBody(byteBuffer: injected)
        return response
    }

    /// `html` with the script tag before its last `</body>` (any case), or appended.
    static func inject(_ html: [UInt8]) -> [UInt8] {
        let tag = Array(LiveReloadScript.tag.utf8)
        let close = Array("</body".utf8)
        var index = html.count - close.count
        while index >= 0 {
            if zip(html[index..<(index + close.count)], close).allSatisfy({ lowercase($0) == $1 }) {
                return Array(html[..<index]) + tag + Array(html[index...])
            }
            index -= 1
        }
        return html + tag
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// Reads a whole (bounded) body into memory.
    static func collect(_ body: ResponseBody, limit: Int) async throws -> ByteBuffer {
        let sink = CollectingWriter.Sink()
        try await body.write(CollectingWriter(sink: sink, limit: limit))
        return sink.buffer
    }
}

/// A body writer that keeps what it is given.
struct CollectingWriter: ResponseBodyWriter {
    final class Sink: @unchecked Sendable {
        var buffer = ByteBuffer()
    }

    struct TooLarge: Error {}

    let sink: Sink
    let limit: Int

    mutating func write(_ buffer: ByteBuffer) async throws {
        guard sink.buffer.readableBytes + buffer.readableBytes <= limit else { throw TooLarge() }
        var copy = buffer
        sink.buffer.writeBuffer(&copy)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
