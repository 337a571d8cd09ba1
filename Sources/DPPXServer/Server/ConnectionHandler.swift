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

/// The one writer of answers: reads an HTTP/1 connection's requests as NIO parses them, asks
/// `StaticResponder` for each answer (the server's own pages under `/_dppx/` included), and
/// writes it (head bytes, then the body from memory or, through `sendfile`, from disk; the
/// live-reload events as they come).
///
/// **Order and memory.** Requests are answered in order. A request is taken up only while the
/// connection can take more output (NIO's pending bytes under its high-water mark), no file is
/// open for it and no answer is still being made or streamed; until then its parts wait here and nothing more is
/// read from the socket. So a client that pipelines requests without reading the answers holds
/// at most one read's worth of requests (`readSizes`: 2 KB, one to four of a browser's
/// requests or about 40 short ones, never more than `maximumWaitingParts`), one answer's pending writes (slices of the
/// shared in-memory file, not copies) and one open file. A parsed request head costs about
/// half a kilobyte however short its line: NIO's default reads (four of up to 64 KB a wake-up)
/// held some 340 of them, 180 KB, per stalled client.
///
/// **Time.** One clock per connection, `timeout` (`--idle-timeout`) for each rule: a connection
/// with nothing in progress that completes no request head in that time is closed (idle
/// keep-alive connections, headers dribbled byte by byte); so is one whose request body has not
/// ended that long after its head, and one whose answers have not moved for that long (a client
/// that stopped reading). A request waiting for its answer is not idle.
///
/// **The same request again.** A client that repeats its last request on the connection (a
/// reload, a poll, a benchmark) gets the last answer once one `stat` shows the file is the same
/// and the manifest is the same load (`Answer.decidedFrom`): the decision costs more than the
/// rest of the request. The answer's body is taken from the file cache again, never kept here.
///
/// **Closing.** HTTP/1.0 without keep-alive, `Connection: close`, a malformed request, or a
/// client that shut its side: the answer says `Connection: close` and the connection closes once
/// it is sent. On graceful shutdown the connection closes once its answers in progress are sent.
final class ConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// Bodies are written in pieces of this size, each one's completion counting as progress.
    static let pieceSize = 256 * 1024
    /// Request parts kept waiting at most (one read of the shortest requests, two parts each);
    /// past that the connection is closed.
    static let maximumWaitingParts = 256
    /// Socket reads: from 64 bytes to 2 KB by what the last reads filled, one read per wake-up
    /// (`ServerChannel`). Request heads are short; a longer one takes two reads.
    static let readSizes = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 2048)

    private let responder: StaticResponder
    private let accessLogger: Logger?
    private let timeout: TimeAmount

    /// Where answers enter the pipeline: the HTTP encoder's position, so they pass only the
    /// handlers before it (`CloseAfterWritesHandler`).
    private var bytesOutlet: ChannelHandlerContext?
    /// Request parts read and not taken up yet.
    private var waiting = CircularBuffer<HTTPServerRequestPart>()
    private var work = Work.none
    private var reading = Reading.nothing
    /// Files open for answers being sent.
    private var openFiles = 0
    /// A read was asked for while this handler could take no request: it is done on resuming.
    private var readHeld = false
    private var closing = false
    /// Graceful shutdown: no new request is taken up; close once the answers are sent.
    private var quiescing = false
    /// The client shut its side: close once every request read is answered.
    private var inputEnded = false
    private var needsFlush = false
    /// By the event loop's clock (which tests can move).
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    private var lastProgress = NIODeadline.uptimeNanoseconds(0)
    private var requestStarted = NIODeadline.uptimeNanoseconds(0)
    private var timer: Scheduled<Void>?
    private var date: (second: Int, text: String) = (-1, "")
    private var last: (request: HTTPRequestHead, answer: Answer)?

    private enum Work {
        case none
        /// A file is being read (on NIO's thread pool) before the answer can be made.
        case loading
        /// An endless answer is being sent: the live-reload events.
        case streaming(EventStream)

        var isNone: Bool {
            if case .none = self { true } else { false }
        }
    }

    /// The live-reload events being sent on this connection.
    private struct EventStream {
        /// Reads the events and hands each to the event loop.
        let task: Task<Void, Never>
        /// HTTP/1.1: each event is a chunk; HTTP/1.0: the body ends when the connection closes.
        let chunked: Bool
        let closes: Bool
        var sentBytes: Int
        let logLine: AccessLogLine?
    }

    /// What the access-log line of an answer needs once its body is sent.
    private struct AccessLogLine {
        let method: String
        let target: String
        let status: Int
        let variant: String?
        let start: ContinuousClock.Instant
    }

    private enum Reading {
        case nothing
        /// The rest of a request already answered: dropped.
        case discarding
    }

    init(responder: StaticResponder, accessLogger: Logger?, timeout: TimeAmount) {
        self.responder = responder
        self.accessLogger = accessLogger
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        bytesOutlet = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        lastActivity = context.eventLoop.now
        if context.channel.isActive { schedule(context, at: lastActivity + timeout) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if case .streaming(let stream) = work { stream.task.cancel() }
        timer?.cancel()
        timer = nil
        bytesOutlet = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        lastActivity = context.eventLoop.now
        schedule(context, at: lastActivity + timeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        closing = true
        if case .streaming(let stream) = work { stream.task.cancel() }
        context.fireChannelInactive()
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closing else { return }
        let part = unwrapInboundIn(data)
        if waiting.isEmpty, canTakeUp(part, context) {
            take(part, context)
        } else if waiting.count < Self.maximumWaitingParts {
            waiting.append(part)
        } else {
            // More requests than one read holds, unanswered because their answers are not read
            // (NIO reads a closing socket to its end): the client is not reading.
            abort(context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if isStalled(context) || !waiting.isEmpty {
            readHeld = true
        } else {
            context.read()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            lastProgress = context.eventLoop.now
            lastActivity = lastProgress
            resume(context)
        }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let quiesce = event is ChannelShouldQuiesceEvent
        if quiesce || (event as? ChannelEvent) == .inputClosed {
            if quiesce { quiescing = true } else { inputEnded = true }
            resume(context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        // A request NIO cannot parse: the connection cannot be read further.
        waiting.removeAll()
        reading = .nothing
        if work.isNone, !closing {
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "")
            // The parser's own words name its internals, not what the client should change.
            send(.errorPage(.badRequest, path: "", message: "the request is not valid HTTP/1.1", isHead: false, closes: true),
                 for: head, start: nil, context: context)
            flushIfNeeded(context)
        } else {
            abort(context)
        }
    }

    /// Whether `part` can be taken up now: the rest of a request always can, a new request only
    /// when nothing is in the way.
    private func canTakeUp(_ part: HTTPServerRequestPart, _ context: ChannelHandlerContext) -> Bool {
        if case .head = part { return !isStalled(context) }
        return true
    }

    private func isStalled(_ context: ChannelHandlerContext) -> Bool {
        closing || quiescing || !work.isNone || openFiles > 0 || !context.channel.isWritable
    }

    private func take(_ part: HTTPServerRequestPart, _ context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            lastActivity = context.eventLoop.now
            requestStarted = lastActivity
            take(head, context)
        case .body:
            break
        case .end:
            reading = .nothing
            lastActivity = context.eventLoop.now
        }
    }

    private func take(_ head: HTTPRequestHead, _ context: ChannelHandlerContext) {
        // Only read with an access log: the line's duration includes the decision.
        let start = accessLogger == nil ? nil : ContinuousClock.now
        reading = .discarding
        if let reused = reusableAnswer(to: head) {
            send(reused, for: head, start: start, context: context)
            return
        }
        let request = ClientRequest(method: Self.method(head.method), uri: URI(head.uri), headers: head.headers)
        guard request.hostCount == 1 || (request.hostCount == 0 && head.version == .http1_0) else {
            let reason = request.hostCount == 0 ? "an HTTP/1.1 request needs a Host header" : "the request has more than one Host header"
            send(.errorPage(.badRequest, path: request.uri.path, message: reason, isHead: request.method == .head, closes: true),
                 for: head, start: start, context: context)
            return
        }
        decide(request, head: head, start: start, mayLoad: true, context: context)
    }

    private func decide(_ request: ClientRequest, head: HTTPRequestHead, start: ContinuousClock.Instant?, mayLoad: Bool,
                        context: ChannelHandlerContext) {
        switch responder.decide(request) {
        case .answer(let answer):
            if answer.decidedFrom != nil { last = (head, answer) }
            send(answer, for: head, start: start, context: context)
        case .needsRead(let read):
            guard mayLoad else {
                // Replaced again while it was being read: the client asks again.
                let busy = Answer(status: .serviceUnavailable, headers: [.retryAfter: "1"], bytes: ByteBuffer(), isHead: true)
                send(busy, for: head, start: start, context: context)
                return
            }
            work = .loading
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            read(context.eventLoop).hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
                let (handler, context) = loopBound.value
                guard !handler.closing else { return }
                handler.work = .none
                handler.decide(request, head: head, start: start, mayLoad: false, context: context)
                handler.resume(context)
            }
        }
    }

    private static func method(_ method: HTTPMethod) -> ClientRequest.Method {
        switch method {
        case .GET: .get
        case .HEAD: .head
        default: .other
        }
    }

    /// The last answer again, for a client that sends the same request again on this connection:
    /// valid while the manifest is the same load and the file answered with is the same file
    /// (one `stat`), because nothing else went into it (`Answer.decidedFrom`).
    private func reusableAnswer(to head: HTTPRequestHead) -> Answer? {
        guard let last, head.method == last.request.method, head.uri == last.request.uri,
              head.version == last.request.version,
              head.headers.elementsEqual(last.request.headers, by: { $0.name == $1.name && $0.value == $1.value }),
              let source = last.answer.decidedFrom
        else { return nil }
        guard responder.manifests.index().isSameLoad(as: source.manifest), responder.files.entry(source.path) == source.file else {
            self.last = nil
            return nil
        }
        return last.answer
    }

    // MARK: Answers

    private func send(_ answer: Answer, for head: HTTPRequestHead, start: ContinuousClock.Instant?, context: ChannelHandlerContext) {
        if let events = answer.events {
            stream(events, after: answer, for: head, start: start, context: context)
            return
        }
        let outlet = bytesOutlet ?? context
        let closes = answer.closesConnection || !head.isKeepAlive
        let connection: HTTP1ResponseHead.Connection = closes ? .close : head.version.minor == 0 ? .keepAlive : .unsaid
        let encodedHead = HTTP1ResponseHead.encode(status: answer.status, fieldLines: answer.fieldLines, connection: connection,
                                                   date: currentDate(), allocator: context.channel.allocator)
        needsFlush = true
        lastProgress = context.eventLoop.now
        if closes { closing = true }
        let parts = answer.body.parts
        // Each part is looked up in memory once: the first here, the rest in the loop below; a
        // file that is not there is then opened, not looked for again.
        let first = parts.first.map(inMemory)
        // The common answer (a head and at most one small body in memory) needs no promise.
        if start == nil, !closes, parts.count <= 1 {
            let bytes = first ?? nil
            if parts.isEmpty || (bytes?.readableBytes ?? .max) <= Self.pieceSize {
                outlet.write(NIOAny(IOData.byteBuffer(encodedHead)), promise: nil)
                if let bytes { outlet.write(NIOAny(IOData.byteBuffer(bytes)), promise: nil) }
                return
            }
        }
        let done = context.eventLoop.makePromise(of: Void.self)
        var pieces: [IOData] = [.byteBuffer(encodedHead)]
        var files: [NIOFileHandle] = []
        var sentBytes = 0
        for (index, part) in parts.enumerated() {
            if let bytes = index == 0 ? first ?? nil : inMemory(part) {
                var rest = bytes
                while let piece = rest.readSlice(length: min(rest.readableBytes, Self.pieceSize)), piece.readableBytes > 0 {
                    pieces.append(.byteBuffer(piece))
                }
                sentBytes += bytes.readableBytes
            } else if case .file(let slice) = part, let file = responder.files.open(slice) {
                files.append(file)
                var offset = slice.range.lowerBound
                while offset < slice.range.upperBound {
                    let end = min(offset + Self.pieceSize, slice.range.upperBound)
                    pieces.append(.fileRegion(FileRegion(fileHandle: file, readerIndex: offset, endIndex: end)))
                    offset = end
                }
                sentBytes += slice.range.count
                if responder.files.keepsInMemory(slice) { warm(slice, on: context.eventLoop) }
            } else {
                // Replaced since the decision: the head promised bytes that are gone. Closing
                // tells the client the answer is incomplete.
                closing = true
                break
            }
        }
        openFiles += files.count
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        for (index, piece) in pieces.enumerated() {
            let isLast = index == pieces.count - 1
            let promise = isLast ? done : context.eventLoop.makePromise(of: Void.self)
            if !isLast {
                promise.futureResult.assumeIsolated().whenSuccess {
                    let (handler, context) = loopBound.value
                    handler.lastProgress = context.eventLoop.now
                }
            }
            outlet.write(NIOAny(piece), promise: promise)
        }
        if !files.isEmpty || closing { flushIfNeeded(context) }
        let logLine = start.map { AccessLogLine(method: head.method.rawValue, target: head.uri, status: answer.status.code,
                                                variant: answer.variant, start: $0) }
        let bytesSent = sentBytes
        done.futureResult.assumeIsolated().whenComplete { result in
            let (handler, context) = loopBound.value
            for file in files { try? file.close() }
            handler.openFiles -= files.count
            handler.lastProgress = context.eventLoop.now
            handler.lastActivity = handler.lastProgress
            if let logLine {
                let aborted = (try? result.get()) == nil
                handler.log(logLine, bytes: aborted ? 0 : bytesSent, aborted: aborted)
            }
            if handler.closing {
                context.close(promise: nil)
            } else if !files.isEmpty {
                handler.resume(context)
            }
        }
    }

    /// `part`'s bytes when they are in memory.
    private func inMemory(_ part: AnswerBody.Part) -> ByteBuffer? {
        switch part {
        case .bytes(let bytes): bytes
        case .file(let slice): responder.files.bodyInMemory(slice)
        }
    }

    /// Reads a small file into memory on NIO's thread pool, so the next requests for it are
    /// answered from there.
    private func warm(_ slice: FileSlice, on eventLoop: any EventLoop) {
        _ = responder.files.load(slice, on: eventLoop)
    }

    // MARK: The live-reload events

    /// Sends an endless answer: its head and first bytes now, then each event as it comes
    /// (chunked; for HTTP/1.0 the connection's close ends the body), until the stream ends
    /// (a graceful shutdown ends it) or the client goes away. Nothing else is taken up meanwhile.
    private func stream(_ events: AsyncStream<String>, after answer: Answer, for head: HTTPRequestHead,
                        start: ContinuousClock.Instant?, context: ChannelHandlerContext) {
        let outlet = bytesOutlet ?? context
        let chunked = head.version.minor > 0 || head.version.major > 1
        let closes = answer.closesConnection || !head.isKeepAlive || !chunked
        var fieldLines = answer.fieldLines
        if chunked { fieldLines.writeStaticString("Transfer-Encoding: chunked\r\n") }
        let encodedHead = HTTP1ResponseHead.encode(status: answer.status, fieldLines: fieldLines, connection: closes ? .close : .unsaid,
                                                   date: currentDate(), allocator: context.channel.allocator)
        outlet.write(NIOAny(IOData.byteBuffer(encodedHead)), promise: nil)
        var sent = 0
        for case .bytes(let bytes) in answer.body.parts {
            outlet.write(NIOAny(IOData.byteBuffer(chunked ? Self.chunk(bytes) : bytes)), promise: nil)
            sent += bytes.readableBytes
        }
        needsFlush = true
        lastProgress = context.eventLoop.now
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let eventLoop = context.eventLoop
        let task = Task {
            for await text in events {
                eventLoop.execute {
                    let (handler, context) = loopBound.value
                    handler.writeEvent(text, context: context)
                }
            }
            eventLoop.execute {
                let (handler, context) = loopBound.value
                handler.endStream(context: context)
            }
        }
        let logLine = start.map { AccessLogLine(method: head.method.rawValue, target: head.uri, status: answer.status.code,
                                                variant: nil, start: $0) }
        work = .streaming(EventStream(task: task, chunked: chunked, closes: closes, sentBytes: sent, logLine: logLine))
        flushIfNeeded(context)
    }

    /// One event, unless the client stopped reading (then it is dropped: the idle rule closes
    /// the connection, and the page reconnects for the latest status).
    private func writeEvent(_ text: String, context: ChannelHandlerContext) {
        guard case .streaming(var stream) = work, context.channel.isActive, context.channel.isWritable else { return }
        let bytes = ByteBuffer(string: text)
        (bytesOutlet ?? context).writeAndFlush(NIOAny(IOData.byteBuffer(stream.chunked ? Self.chunk(bytes) : bytes)), promise: nil)
        stream.sentBytes += bytes.readableBytes
        work = .streaming(stream)
        lastProgress = context.eventLoop.now
    }

    /// The stream ended: the last chunk, the access-log line, then the next request (or the close).
    private func endStream(context: ChannelHandlerContext) {
        guard case .streaming(let stream) = work else { return }
        work = .none
        let active = context.channel.isActive
        if active, stream.chunked {
            (bytesOutlet ?? context).write(NIOAny(IOData.byteBuffer(ByteBuffer(string: "0\r\n\r\n"))), promise: nil)
            needsFlush = true
        }
        if let logLine = stream.logLine { log(logLine, bytes: stream.sentBytes, aborted: !active) }
        lastActivity = context.eventLoop.now
        guard active else { return }
        if stream.closes {
            closing = true
            flushIfNeeded(context)
            context.close(promise: nil)
        } else {
            resume(context)
        }
    }

    /// The access-log line of an answer whose body is sent (or was cut short).
    private func log(_ line: AccessLogLine, bytes: Int, aborted: Bool) {
        accessLogger?.info("\(AccessLogEntry(method: line.method, target: line.target, status: line.status, bytes: bytes, variant: line.variant, duration: .now - line.start, aborted: aborted))")
    }

    /// `bytes` as one chunk of a chunked body.
    private static func chunk(_ bytes: ByteBuffer) -> ByteBuffer {
        var framed = ByteBuffer()
        framed.reserveCapacity(bytes.readableBytes + 12)
        framed.writeString(String(bytes.readableBytes, radix: 16))
        framed.writeStaticString("\r\n")
        framed.writeImmutableBuffer(bytes)
        framed.writeStaticString("\r\n")
        return framed
    }

    /// Takes up waiting requests while nothing is in the way, then reads on if a read was held.
    private func resume(_ context: ChannelHandlerContext) {
        while let part = waiting.first, canTakeUp(part, context) {
            waiting.removeFirst()
            take(part, context)
        }
        flushIfNeeded(context)
        guard !closing, work.isNone, openFiles == 0 else { return }
        if quiescing || (inputEnded && waiting.isEmpty) {
            closing = true
            context.close(promise: nil)
            return
        }
        if readHeld, waiting.isEmpty, context.channel.isWritable {
            readHeld = false
            context.read()
        }
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        guard needsFlush else { return }
        needsFlush = false
        context.flush()
    }

    /// The `Date` header, formatted once a second.
    private func currentDate() -> String {
        let now = time(nil)
        if now != date.second {
            date = (now, HTTPDate.format(now))
        }
        return date.text
    }

    // MARK: Timeouts

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            let (handler, context) = loopBound.value
            handler.checkTimeouts(context)
        }
    }

    private func checkTimeouts(_ context: ChannelHandlerContext) {
        timer = nil
        guard context.channel.isActive else { return }
        let now = context.eventLoop.now
        let deadline: NIODeadline
        if openFiles > 0 || !context.channel.isWritable {
            deadline = lastProgress + timeout           // the client stopped reading
        } else if reading != .nothing {
            deadline = requestStarted + timeout         // a request body dribbled
        } else if work.isNone, waiting.isEmpty {
            deadline = lastActivity + timeout           // idle, or headers dribbled
        } else {
            deadline = now + timeout                    // an answer being made
        }
        if deadline <= now {
            abort(context)
        } else {
            schedule(context, at: deadline)
        }
    }

    /// Closes now, dropping whatever is not sent.
    private func abort(_ context: ChannelHandlerContext) {
        closing = true
        waiting.removeAll()
        context.triggerUserOutboundEvent(CloseAfterWritesHandler.CloseNow(), promise: nil)
        context.close(promise: nil)
    }
}
