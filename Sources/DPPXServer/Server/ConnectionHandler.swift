import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// The one writer of answers: reads an HTTP/1 connection's requests as NIO parses them, asks
/// `StaticResponder` for each answer (the server's own pages under `/_dppx/` included), and
/// writes it (head bytes, then the body from memory or, through `sendfile`, from disk; the
/// live-reload events as they come).
///
/// **Rules.** When a request is taken up, when the socket is read, when the connection closes and
/// which deadline applies are `ConnectionState`'s, a value with no channel: this handler tells it
/// what happened and does what it answers. So a client that pipelines requests without reading
/// the answers holds at most one read's worth of requests (`readSizes`: 2 KB, one to four of a
/// browser's requests or about 40 short ones, never more than `maximumWaitingParts`), one
/// answer's pending writes (slices of the shared in-memory file, not copies) and one open file.
/// A parsed request head costs about half a kilobyte however short its line: NIO's default reads
/// (four of up to 64 KB a wake-up) held some 340 of them, 180 KB, per stalled client.
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
    typealias OutboundIn = IOData
    /// Answers leave as bytes (`HTTP1ResponseHead`), straight to `CloseAfterWritesHandler`.
    typealias OutboundOut = IOData

    /// Bodies are written in pieces of this size, each one's completion counting as progress.
    static let pieceSize = 256 * 1024
    /// Request parts kept waiting at most (one read of the shortest requests, two parts each);
    /// past that the connection is closed.
    static let maximumWaitingParts = 256
    /// Socket reads: from 64 bytes to 2 KB by what the last reads filled, one read per wake-up
    /// (`ServerChannel`). Request heads are short; a longer one takes two reads.
    static let readSizes = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 2048)

    private let responder: StaticResponder
    private let accessLog: AccessLog?
    private let timeout: TimeAmount

    private var state: ConnectionState
    private var needsFlush = false
    private var timer: Scheduled<Void>?
    private var date: (second: Int, text: String) = (-1, "")
    private var last: (request: HTTPRequestHead, answer: Answer)?

    /// The live-reload events being sent, while `state.phase` is `.streaming`.
    private var eventStream: EventStream?

    /// The live-reload events being sent on this connection.
    private struct EventStream {
        /// Reads the events and hands each to the event loop.
        let task: Task<Void, Never>
        /// HTTP/1.1: each event is a chunk; HTTP/1.0: the body ends when the connection closes.
        let chunked: Bool
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

    init(responder: StaticResponder, accessLog: AccessLog?, timeout: TimeAmount) {
        self.responder = responder
        self.accessLog = accessLog
        self.timeout = timeout
        self.state = ConnectionState(timeout: timeout, maximumWaitingParts: Self.maximumWaitingParts, now: .uptimeNanoseconds(0))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        state.started(now: context.eventLoop.now)
        if context.channel.isActive { schedule(context, at: context.eventLoop.now + timeout) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        eventStream?.task.cancel()
        timer?.cancel()
        timer = nil
    }

    func channelActive(context: ChannelHandlerContext) {
        state.started(now: context.eventLoop.now)
        schedule(context, at: context.eventLoop.now + timeout)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        state.closed()
        eventStream?.task.cancel()
        context.fireChannelInactive()
    }

    // MARK: Requests

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch state.partRead(unwrapInboundIn(data), isWritable: context.channel.isWritable, now: context.eventLoop.now) {
        case .takeUp(let part): take(part, context)
        case .wait, .drop: break
        case .abort: abort(context)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context)
        context.fireChannelReadComplete()
    }

    func read(context: ChannelHandlerContext) {
        if state.readRequested(isWritable: context.channel.isWritable) { context.read() }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        state.writabilityChanged(isWritable: context.channel.isWritable, now: context.eventLoop.now)
        if context.channel.isWritable { resume(context) }
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        let quiesce = event is ChannelShouldQuiesceEvent
        if quiesce || (event as? ChannelEvent) == .inputClosed {
            if quiesce { state.quiesce() } else { state.inputClosed() }
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
        switch state.parseError() {
        case .answerBadRequest:
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "")
            // The parser's own words name its internals, not what the client should change.
            send(.errorPage(.badRequest, path: "", message: "the request is not valid HTTP/1.1", isHead: false, closes: true),
                 for: head, start: nil, context: context)
            flushIfNeeded(context)
        case .abort:
            abort(context)
        }
    }

    /// Answers a request taken up (the rest of a request already answered is dropped).
    private func take(_ part: HTTPServerRequestPart, _ context: ChannelHandlerContext) {
        if case .head(let head) = part { take(head, context) }
    }

    private func take(_ head: HTTPRequestHead, _ context: ChannelHandlerContext) {
        // Only read with an access log: the line's duration includes the decision.
        let start = accessLog == nil ? nil : ContinuousClock.now
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
            state.loadStarted()
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            read(context.eventLoop).hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
                let (handler, context) = loopBound.value
                guard handler.state.loadFinished() else { return }
                handler.decide(request, head: head, start: start, mayLoad: false, context: context)
                handler.resume(context)
            }
        case .madeOffLoop(let make):
            state.loadStarted()
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            NIOThreadPool.singleton.runIfActive(eventLoop: context.eventLoop, make).hop(to: context.eventLoop).assumeIsolated().whenComplete { result in
                let (handler, context) = loopBound.value
                guard handler.state.loadFinished() else { return }
                let answer = (try? result.get())
                    ?? Answer(status: .serviceUnavailable, headers: [.retryAfter: "1"], bytes: ByteBuffer(), isHead: true)
                handler.send(answer, for: head, start: start, context: context)
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
        let closes = answer.closesConnection || !head.isKeepAlive
        let connection: HTTP1ResponseHead.Connection = closes ? .close : head.version.minor == 0 ? .keepAlive : .unsaid
        let encodedHead = HTTP1ResponseHead.encode(status: answer.status, fieldLines: answer.fieldLines, connection: connection,
                                                   date: currentDate(), allocator: context.channel.allocator)
        needsFlush = true
        state.answerStarted(closes: closes, now: context.eventLoop.now)
        let parts = answer.body.parts
        // Each part is looked up in memory once: the first here, the rest in the loop below; a
        // file that is not there is then opened, not looked for again.
        let first = parts.first.map(inMemory)
        // The common answer (a head and at most one small body in memory) needs no promise.
        if start == nil, !closes, parts.count <= 1 {
            let bytes = first ?? nil
            if parts.isEmpty || (bytes?.readableBytes ?? .max) <= Self.pieceSize {
                context.write(wrapOutboundOut(.byteBuffer(encodedHead)), promise: nil)
                if let bytes { context.write(wrapOutboundOut(.byteBuffer(bytes)), promise: nil) }
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
                state.answerCut()
                break
            }
        }
        state.filesOpened(files.count)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        for (index, piece) in pieces.enumerated() {
            let isLast = index == pieces.count - 1
            let promise = isLast ? done : context.eventLoop.makePromise(of: Void.self)
            if !isLast {
                promise.futureResult.assumeIsolated().whenSuccess {
                    let (handler, context) = loopBound.value
                    handler.state.progressed(now: context.eventLoop.now)
                }
            }
            context.write(wrapOutboundOut(piece), promise: promise)
        }
        if !files.isEmpty || state.closing { flushIfNeeded(context) }
        let logLine = start.map { AccessLogLine(method: head.method.rawValue, target: head.uri, status: answer.status.code,
                                                variant: answer.variant, start: $0) }
        let bytesSent = sentBytes
        done.futureResult.assumeIsolated().whenComplete { result in
            let (handler, context) = loopBound.value
            for file in files { try? file.close() }
            let next = handler.state.answerSent(files: files.count, now: context.eventLoop.now)
            if let logLine {
                let aborted = (try? result.get()) == nil
                handler.log(logLine, bytes: aborted ? 0 : bytesSent, aborted: aborted)
            }
            switch next {
            case .close: context.close(promise: nil)
            case .resume: handler.resume(context)
            case .none: break
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
        let chunked = head.version.minor > 0 || head.version.major > 1
        let closes = answer.closesConnection || !head.isKeepAlive || !chunked
        var fieldLines = answer.fieldLines
        if chunked { fieldLines.writeStaticString("Transfer-Encoding: chunked\r\n") }
        let encodedHead = HTTP1ResponseHead.encode(status: answer.status, fieldLines: fieldLines, connection: closes ? .close : .unsaid,
                                                   date: currentDate(), allocator: context.channel.allocator)
        context.write(wrapOutboundOut(.byteBuffer(encodedHead)), promise: nil)
        var sent = 0
        for case .bytes(let bytes) in answer.body.parts {
            context.write(wrapOutboundOut(.byteBuffer(chunked ? Self.chunk(bytes) : bytes)), promise: nil)
            sent += bytes.readableBytes
        }
        needsFlush = true
        state.streamStarted(closes: closes, now: context.eventLoop.now)
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
        eventStream = EventStream(task: task, chunked: chunked, sentBytes: sent, logLine: logLine)
        flushIfNeeded(context)
    }

    /// One event, unless the client stopped reading (then it is dropped: the idle rule closes
    /// the connection, and the page reconnects for the latest status).
    private func writeEvent(_ text: String, context: ChannelHandlerContext) {
        guard var stream = eventStream, context.channel.isActive, context.channel.isWritable else { return }
        let bytes = ByteBuffer(string: text)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(stream.chunked ? Self.chunk(bytes) : bytes)), promise: nil)
        stream.sentBytes += bytes.readableBytes
        eventStream = stream
        state.progressed(now: context.eventLoop.now)
    }

    /// The stream ended: the last chunk, the access-log line, then the next request (or the close).
    private func endStream(context: ChannelHandlerContext) {
        guard let stream = eventStream else { return }
        eventStream = nil
        let next = state.streamEnded(now: context.eventLoop.now)
        let active = context.channel.isActive
        if active, stream.chunked {
            context.write(wrapOutboundOut(.byteBuffer(ByteBuffer(string: "0\r\n\r\n"))), promise: nil)
            needsFlush = true
        }
        if let logLine = stream.logLine { log(logLine, bytes: stream.sentBytes, aborted: !active) }
        guard active else { return }
        switch next {
        case .close:
            flushIfNeeded(context)
            context.close(promise: nil)
        case .resume, .none:
            resume(context)
        }
    }

    /// The access-log line of an answer whose body is sent (or was cut short).
    private func log(_ line: AccessLogLine, bytes: Int, aborted: Bool) {
        accessLog?.record(AccessLogEntry(method: line.method, target: line.target, status: line.status, bytes: bytes,
                                         variant: line.variant, duration: .now - line.start, aborted: aborted))
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

    /// Takes up waiting requests while nothing is in the way, then closes or reads on if that
    /// is what is due.
    private func resume(_ context: ChannelHandlerContext) {
        while true {
            switch state.resume(isWritable: context.channel.isWritable, now: context.eventLoop.now) {
            case .takeUp(let part):
                take(part, context)
            case .close:
                flushIfNeeded(context)
                context.close(promise: nil)
                return
            case .read:
                flushIfNeeded(context)
                context.read()
                return
            case .none:
                flushIfNeeded(context)
                return
            }
        }
    }

    private func flushIfNeeded(_ context: ChannelHandlerContext) {
        guard needsFlush else { return }
        needsFlush = false
        context.flush()
    }

    /// The `Date` header, formatted once a second.
    private func currentDate() -> String {
        let now = HTTPDate.now()
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
        switch state.deadline(now: context.eventLoop.now, isWritable: context.channel.isWritable) {
        case .abort: abort(context)
        case .wait(let deadline): schedule(context, at: deadline)
        }
    }

    /// Closes now, dropping whatever is not sent.
    private func abort(_ context: ChannelHandlerContext) {
        state.abort()
        context.triggerUserOutboundEvent(CloseAfterWritesHandler.CloseNow(), promise: nil)
        context.close(promise: nil)
    }
}
