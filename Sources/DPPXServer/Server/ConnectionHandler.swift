import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOPosix

/// One HTTP/1 connection: reads its requests as NIO parses them, asks `Responder` for
/// each answer (the server's own pages under `/_dppx/` included) and has it written:
/// `AnswerWriter` writes an answer's head and body, `LiveReloadStream` the live-reload events
/// as they come; each answer's access-log line (`PendingLogLine`) is recorded once its body
/// is sent, or, for a small answer in memory written whole, once it is handed to the flush.
/// What is left here is what happens around an answer, and the timer.
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
/// **The same request again.** A client that repeats its last request on the connection gets
/// the last answer while its file and the manifest are unchanged (`LastAnswer`).
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

    /// Request parts kept waiting at most (one read of the shortest requests, two parts each);
    /// past that the connection is closed.
    static let maximumWaitingParts = 256
    /// Socket reads: from 64 bytes to 2 KB by what the last reads filled, one read per wake-up
    /// (`ConnectionPipeline`). Request heads are short; a longer one takes two reads.
    static let readSizes = AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 1024, maximum: 2048)

    private let responder: Responder
    private let accessLog: AccessLog?
    private let timeout: TimeAmount

    private var state: ConnectionState
    private var writer = AnswerWriter()
    private var needsFlush = false
    private var timer: Scheduled<Void>?
    private var last: LastAnswer?
    /// The live-reload events being sent, while `state.phase` is `.streaming`.
    private var eventStream: LiveReloadStream?

    init(responder: Responder, accessLog: AccessLog?, timeout: TimeAmount) {
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
        eventStream?.cancel()
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
        eventStream?.cancel()
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
        switch responder.answer(to: head, on: context.eventLoop) {
        case .now(let answer):
            if let kept = LastAnswer(answer, to: head) { last = kept }
            send(answer, for: head, start: start, context: context)
        case .later(let answer):
            state.loadStarted()
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            answer.assumeIsolated().whenComplete { result in
                let (handler, context) = loopBound.value
                guard handler.state.loadFinished() else { return }
                let answer = (try? result.get()) ?? Responder.busy
                if let kept = LastAnswer(answer, to: head) { handler.last = kept }
                handler.send(answer, for: head, start: start, context: context)
                handler.resume(context)
            }
        }
    }

    /// The last answer again, when `head` repeats its request and it still holds.
    private func reusableAnswer(to head: HTTPRequestHead) -> Answer? {
        guard let last, last.isRepeated(by: head) else { return nil }
        guard responder.stillHolds(last.source) else {
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
        needsFlush = true
        state.answerStarted(closes: closes, now: context.eventLoop.now)
        let pieces: AnswerPieces
        switch writer.start(answer, connection: connection, awaited: closes, context: context) {
        case .written(let bodyBytes):
            // Handed whole to this read's flush, as nginx logs a small answer once it is
            // handed to the socket: no promise to wait for (a fifth of the CPU of a small
            // answer with one, bench/serve).
            if let start { accessLog?.record(PendingLogLine(head, answer, start: start).entry(bytes: bodyBytes, aborted: false)) }
            return
        case .pieces(let started):
            pieces = started
        }
        let files = pieces.files.count
        if pieces.isCut { state.answerCut() }
        state.filesOpened(files)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        let done = pieces.write(to: context) {
            let (handler, context) = loopBound.value
            handler.state.progressed(now: context.eventLoop.now)
        }
        if files > 0 || state.closing { flushIfNeeded(context) }
        let logLine = start.map { PendingLogLine(head, answer, start: $0) }
        let bodyBytes = pieces.bodyBytes
        done.assumeIsolated().whenComplete { result in
            let (handler, context) = loopBound.value
            let next = handler.state.answerSent(files: files, now: context.eventLoop.now)
            if let logLine {
                let aborted = (try? result.get()) == nil
                handler.accessLog?.record(logLine.entry(bytes: aborted ? 0 : bodyBytes, aborted: aborted))
            }
            switch next {
            case .close: context.close(promise: nil)
            case .resume: handler.resume(context)
            case .none: break
            }
        }
    }

    // MARK: The live-reload events

    /// Sends an endless answer (`LiveReloadStream`). Nothing else is taken up meanwhile.
    private func stream(_ events: AsyncStream<String>, after answer: Answer, for head: HTTPRequestHead,
                        start: ContinuousClock.Instant?, context: ChannelHandlerContext) {
        var stream = LiveReloadStream(chunked: head.version.minor > 0 || head.version.major > 1,
                                      logLine: start.map { PendingLogLine(head, answer, start: $0) })
        let closes = answer.closesConnection || !head.isKeepAlive || !stream.chunked
        let encodedHead = writer.head(status: answer.status, fieldLines: stream.fieldLines(of: answer), connection: closes ? .close : .unsaid,
                                      allocator: context.channel.allocator)
        stream.writeStart(head: encodedHead, of: answer, to: context)
        needsFlush = true
        state.streamStarted(closes: closes, now: context.eventLoop.now)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        stream.start(events, on: context.eventLoop) { text in
            let (handler, context) = loopBound.value
            handler.writeEvent(text, context: context)
        } onEnd: {
            let (handler, context) = loopBound.value
            handler.endStream(context: context)
        }
        eventStream = stream
        flushIfNeeded(context)
    }

    /// One event, unless the client stopped reading (then it is dropped: the idle rule closes
    /// the connection, and the page reconnects for the latest status).
    private func writeEvent(_ text: String, context: ChannelHandlerContext) {
        guard var stream = eventStream, context.channel.isActive, context.channel.isWritable else { return }
        stream.write(text, to: context)
        eventStream = stream
        state.progressed(now: context.eventLoop.now)
    }

    /// The stream ended: the last chunk, the access-log line, then the next request (or the close).
    private func endStream(context: ChannelHandlerContext) {
        guard let stream = eventStream else { return }
        eventStream = nil
        let next = state.streamEnded(now: context.eventLoop.now)
        let active = context.channel.isActive
        if active, stream.writeEnd(to: context) { needsFlush = true }
        if let logLine = stream.logLine { accessLog?.record(logLine.entry(bytes: stream.sentBytes, aborted: !active)) }
        guard active else { return }
        switch next {
        case .close:
            flushIfNeeded(context)
            context.close(promise: nil)
        case .resume, .none:
            resume(context)
        }
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
