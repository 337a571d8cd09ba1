import DPPXCore
import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Answers a request whose file is in memory right where NIO has parsed it, with bytes it
/// writes itself: no conversion to Swift HTTP types and back, no Swift task, no async writer,
/// no middleware. For a small image that path is most of what a request costs: on loopback a
/// bare Hummingbird responder served about a third of the requests per second a NIO handler
/// writing a prepared answer did.
///
/// **Same answers.** It asks `StaticResponder`, as `StaticFileMiddleware` does, and writes the
/// head the way Hummingbird's path would (`HTTP1ResponseHead`). It answers only where no
/// middleware would change the answer: a GET or HEAD over HTTP/1.1 that keeps the connection
/// open, without a body or `Expect`, that `StaticResponder` answers with a file (200, 206 or
/// 304) whose bytes `RootedFileSystem` holds, and that is not an HTML page (those get
/// `Accept-CH`, and in dev mode the reload script). Everything else (errors, redirects, pages,
/// large files, files not read yet, routes) goes on to Hummingbird unchanged. With an access
/// log it writes the line `AccessLogMiddleware` would, once the response is sent.
///
/// **Order.** While Hummingbird still owes a response on the connection, requests go to
/// Hummingbird too, so pipelined answers keep their order. Answers to HEAD requests that
/// Hummingbird writes lose any body here (NIO's encoder would need the decoder's help for that,
/// which this pipeline does not give it: the decoder cannot tell it about requests answered here).
///
/// **The same request again.** A client that repeats its last request on the connection (a
/// reload, a poll, a benchmark) gets the last answer once one `stat` shows the file is the same
/// and the manifest is the same load: the decision itself (hints, variant choice, validators)
/// costs more than all the rest (`reusableAnswer`).
///
/// **Idle connections.** Hummingbird's connection handler no longer sees every request, so the
/// idle timeout is kept here, with its rules: a connection with no request in progress and
/// nothing read for `idleTimeout`, or one whose request stopped arriving, is closed; one waiting
/// for its response is not.
final class DirectFileHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Nil: every request goes to Hummingbird (the handler then only keeps order and idleness).
    private let responder: StaticResponder?
    private let accessLogger: Logger?
    private let idleTimeout: TimeAmount

    /// Where this handler's own bytes enter the pipeline: the HTTP encoder's position, so they
    /// pass only the handlers before it (`CloseAfterWritesHandler`).
    private var bytesOutlet: ChannelHandlerContext?
    /// Methods of the requests Hummingbird still owes a response for, oldest first.
    private var owed: [HTTPMethod] = []
    private var reading = Reading.nothing
    /// The response Hummingbird is writing answers a HEAD request: its body parts are dropped.
    private var droppingBody = false
    private var quiescing = false
    private var needsFlush = false
    /// By the event loop's clock (which tests can move).
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    private var idleCheck: Scheduled<Void>?
    private var date: (second: Int, text: String) = (-1, "")
    /// The last answer given here, for the same request again (see `reusableAnswer`).
    private var last: LastAnswer?

    private enum Reading {
        case nothing
        /// A request answered here: the rest of it is dropped.
        case answered
        /// A request going to Hummingbird.
        case forwarded
    }

    init(responder: StaticResponder?, accessLogger: Logger?, idleTimeout: TimeAmount) {
        self.responder = responder
        self.accessLogger = accessLogger
        self.idleTimeout = idleTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        bytesOutlet = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        lastActivity = context.eventLoop.now
        if context.channel.isActive { scheduleIdleCheck(context, in: idleTimeout) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        bytesOutlet = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        lastActivity = context.eventLoop.now
        scheduleIdleCheck(context, in: idleTimeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.cancel()
        idleCheck = nil
        context.fireChannelInactive()
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = context.eventLoop.now
        switch unwrapInboundIn(data) {
        case .head(let head):
            // Only read with an access log: the line's duration includes the decision.
            let start = accessLogger == nil ? nil : ContinuousClock.now
            if owed.isEmpty, !quiescing, let answer = answer(to: head) {
                reading = .answered
                send(answer, for: head, start: start, context: context)
                return
            }
            reading = .forwarded
            owed.append(head.method)
            context.fireChannelRead(data)
        case .body:
            if reading != .answered { context.fireChannelRead(data) }
        case .end:
            if reading != .answered { context.fireChannelRead(data) }
            reading = .nothing
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if needsFlush {
            needsFlush = false
            context.flush()
        }
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // Graceful shutdown: Hummingbird closes the connection once it owes nothing; until
        // then the requests go to it, which knows what to do with them.
        if event is ChannelShouldQuiesceEvent { quiescing = true }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Hummingbird's responses

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            droppingBody = owed.first == .HEAD && head.status.code >= 200
        case .body:
            if droppingBody {
                promise?.succeed()
                return
            }
        case .end:
            if !owed.isEmpty { owed.removeFirst() }
            droppingBody = false
            lastActivity = context.eventLoop.now
        }
        context.write(data, promise: promise)
    }

    // MARK: Answers from memory

    /// An answer's status, head fields and body: the `Date` is added when it is sent.
    private struct Answer {
        let status: HTTPResponse.Status
        let fieldLines: ByteBuffer
        let body: ByteBuffer?
        let variant: String?

        func with(body: ByteBuffer?) -> Answer {
            Answer(status: status, fieldLines: fieldLines, body: body, variant: variant)
        }
    }

    /// An answer and what it was decided from. Its body bytes are not kept (only which part of
    /// the file): the file cache's bound on memory holds however many connections there are.
    private struct LastAnswer {
        let request: HTTPRequestHead
        let manifest: ManifestIndex
        let path: Substring
        let file: FileIdentity
        let body: StaticResponder.PreparedFile.Body?
        let answer: Answer
    }

    /// The answer to send from memory, or nil to leave the request to Hummingbird.
    private func answer(to head: HTTPRequestHead) -> Answer? {
        guard let responder else { return nil }
        if let reused = reusableAnswer(to: head, responder: responder) { return reused }
        guard head.method == .GET || head.method == .HEAD,
              head.version == .http1_1, head.isKeepAlive,
              head.headers.first(name: "content-length").map({ $0 == "0" }) ?? true,
              !head.headers.contains(name: "transfer-encoding"), !head.headers.contains(name: "expect"),
              head.uri.utf8.first == UInt8(ascii: "/")  // not absolute-form
        else { return nil }
        let request = FileRequest(isHead: head.method == .HEAD, uri: URI(head.uri), headers: head.headers)
        guard !request.hasUncleanValue,
              case .file(let prepared)? = try? responder.answer(to: request),
              !prepared.cached.isHTMLPage
        else { return nil }
        var body: ByteBuffer?
        if let part = prepared.body {
            guard let bytes = Self.bytes(of: part, path: prepared.path, file: prepared.file, files: responder.files) else { return nil }
            body = bytes
        }
        let fieldLines = prepared.http1FieldLines
        let answer = Answer(status: prepared.status, fieldLines: fieldLines, body: body, variant: prepared.cached.contentLocation)
        if let manifest = prepared.decidedWith {
            last = LastAnswer(request: head, manifest: manifest, path: prepared.path, file: prepared.file,
                              body: prepared.body, answer: answer.with(body: nil))
        }
        return answer
    }

    /// The last answer again, for a client that sends the same request again on this connection
    /// (a reload, a poll, a benchmark): valid while the manifest is the same load and the file
    /// answered with is the same file (one `stat`), because nothing else went into it
    /// (`PreparedFile.decidedWith`). Saves the decision: parsing the hints, choosing the variant,
    /// the header lookups, a conversion to Swift HTTP types.
    private func reusableAnswer(to head: HTTPRequestHead, responder: StaticResponder) -> Answer? {
        guard let last, head.method == last.request.method, head.uri == last.request.uri,
              head.version == last.request.version,
              head.headers.elementsEqual(last.request.headers, by: { $0.name == $1.name && $0.value == $1.value })
        else { return nil }
        guard responder.manifests.index().isSameLoad(as: last.manifest), responder.files.entry(last.path) == last.file else {
            self.last = nil
            return nil
        }
        guard let part = last.body else { return last.answer }
        // Gone from the file cache since: Hummingbird reads the file again.
        guard let bytes = Self.bytes(of: part, path: last.path, file: last.file, files: responder.files) else { return nil }
        return last.answer.with(body: bytes)
    }

    /// `body`'s bytes (its prefix, then its part of the file), when the file is in memory.
    private static func bytes(of body: StaticResponder.PreparedFile.Body, path: Substring, file: FileIdentity,
                              files: RootedFileSystem) -> ByteBuffer? {
        let fileBytes: ByteBuffer?
        switch body.file {
        case .whole: fileBytes = files.bodyInMemory(of: path, identity: file, range: nil)
        case .range(let range): fileBytes = files.bodyInMemory(of: path, identity: file, range: range)
        case .none: fileBytes = ByteBuffer()
        }
        guard var prefix = body.prefix else { return fileBytes }
        guard let fileBytes else { return nil }
        prefix.writeImmutableBuffer(fileBytes)
        return prefix
    }

    private func send(_ answer: Answer, for head: HTTPRequestHead, start: ContinuousClock.Instant?, context: ChannelHandlerContext) {
        let outlet = bytesOutlet ?? context
        needsFlush = true
        let encodedHead = HTTP1ResponseHead.encode(status: answer.status, fieldLines: answer.fieldLines, date: currentDate(),
                                                   allocator: context.channel.allocator)
        // A HEAD answer's body is nil already (`FileResponse.prepared`).
        let hasBody = answer.body.map { $0.readableBytes > 0 } ?? false
        guard let logger = accessLogger, let start else {
            outlet.write(NIOAny(IOData.byteBuffer(encodedHead)), promise: nil)
            if hasBody, let body = answer.body { outlet.write(NIOAny(IOData.byteBuffer(body)), promise: nil) }
            return
        }
        let sent = context.eventLoop.makePromise(of: Void.self)
        outlet.write(NIOAny(IOData.byteBuffer(encodedHead)), promise: hasBody ? nil : sent)
        if hasBody, let body = answer.body { outlet.write(NIOAny(IOData.byteBuffer(body)), promise: sent) }
        let method = head.method.rawValue
        let target = head.uri
        let status = answer.status.code
        let bytes = answer.body?.readableBytes ?? 0
        let variant = answer.variant
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

    // MARK: Idle timeout

    private func scheduleIdleCheck(_ context: ChannelHandlerContext, in delay: TimeAmount) {
        idleCheck?.cancel()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        idleCheck = context.eventLoop.assumeIsolated().scheduleTask(in: delay) {
            self.idleCheckFired(loopBound.value)
        }
    }

    private func idleCheckFired(_ context: ChannelHandlerContext) {
        idleCheck = nil
        // A request read whole and waiting for its response is not idle, however long it takes.
        if !owed.isEmpty, reading == .nothing {
            scheduleIdleCheck(context, in: idleTimeout)
            return
        }
        let idleFor = context.eventLoop.now - lastActivity
        if idleFor >= idleTimeout {
            context.close(promise: nil)
        } else {
            scheduleIdleCheck(context, in: idleTimeout - idleFor)
        }
    }
}
