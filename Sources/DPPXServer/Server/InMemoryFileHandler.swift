import DPPXCore
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers a request for a file whose bytes are in memory already right on the connection's
/// event loop, without the Swift task, async writer and middleware calls every other request
/// goes through: most of a small image's cost on a busy server.
///
/// It answers exactly what `StaticFileMiddleware` would, because both ask `StaticResponder`,
/// and only where no middleware would change that answer: a GET or HEAD that `StaticResponder`
/// answers with a file (200, 206 or 304), whose bytes `RootedFileSystem` holds, that is not an
/// HTML page (those get `Accept-CH`, and in dev mode the reload script), for a request without
/// a body or `Connection: close`. Everything else (errors, pages, large files, files not read
/// yet, routes) goes on to Hummingbird unchanged. With an access log, it writes the same line
/// `AccessLogMiddleware` would, once the response is sent.
///
/// It sits after Hummingbird's connection state handler, which so sees every request and
/// response (idle timeout, graceful shutdown). While Hummingbird still owes a response on the
/// connection, requests go to Hummingbird too, so pipelined answers keep their order.
final class InMemoryFileHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let responder: StaticResponder
    private let accessLogger: Logger?
    /// Responses Hummingbird still owes on this connection.
    private var owed = 0
    /// The request being read was answered here: the rest of it is dropped.
    private var answeredCurrent = false
    private var needsFlush = false
    private var date: (second: Int, text: String) = (-1, "")

    init(responder: StaticResponder, accessLogger: Logger?) {
        self.responder = responder
        self.accessLogger = accessLogger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            let start = ContinuousClock.now
            if owed == 0, let answer = answer(to: head) {
                answeredCurrent = true
                send(answer, for: head, start: start, context: context)
                return
            }
            answeredCurrent = false
            owed += 1
            context.fireChannelRead(data)
        case .body:
            if !answeredCurrent { context.fireChannelRead(data) }
        case .end:
            if answeredCurrent {
                answeredCurrent = false
            } else {
                context.fireChannelRead(data)
            }
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), owed > 0 { owed -= 1 }
        context.write(data, promise: promise)
    }

    /// The response to send from memory, or nil to leave the request to Hummingbird.
    private func answer(to head: HTTPRequest) -> (response: HTTPResponse, body: ByteBuffer?)? {
        let fields = head.headerFields
        guard head.method == .get || head.method == .head,
              fields[.contentLength].map({ $0 == "0" }) ?? true, fields[.transferEncoding] == nil,
              !(fields[.connection]?.lowercased().contains("close") ?? false),
              case .file(let prepared)? = try? responder.answer(to: head, uri: URI(head.path ?? "")),
              !prepared.headers.isHTMLPage
        else { return nil }
        var body: ByteBuffer?
        if let part = prepared.body {
            guard let bytes = responder.files.bodyInMemory(of: part.path, identity: part.identity, range: part.range) else { return nil }
            body = bytes
        }
        var headers = prepared.headers
        headers[.date] = currentDate()
        return (HTTPResponse(status: prepared.status, headerFields: headers), body)
    }

    private func send(_ answer: (response: HTTPResponse, body: ByteBuffer?), for head: HTTPRequest,
                      start: ContinuousClock.Instant, context: ChannelHandlerContext) {
        context.write(wrapOutboundOut(.head(answer.response)), promise: nil)
        if let body = answer.body, body.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(body)), promise: nil)
        }
        needsFlush = true
        guard let logger = accessLogger else {
            context.write(wrapOutboundOut(.end(nil)), promise: nil)
            return
        }
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.write(wrapOutboundOut(.end(nil)), promise: sent)
        let method = head.method.rawValue
        let target = head.path ?? ""
        let status = answer.response.status.code
        let bytes = answer.body?.readableBytes ?? 0
        let variant = answer.response.headerFields[.contentLocation]
        sent.futureResult.whenComplete { result in
            let aborted = (try? result.get()) == nil
            logger.info("\(AccessLogEntry(method: method, target: target, status: status, bytes: aborted ? 0 : bytes, variant: variant, duration: .now - start, aborted: aborted))")
        }
    }

    /// The `Date` header Hummingbird adds to its own answers, formatted once a second.
    private func currentDate() -> String {
        let now = time(nil)
        if now != date.second {
            date = (now, HTTPDate.format(now))
        }
        return date.text
    }
}
