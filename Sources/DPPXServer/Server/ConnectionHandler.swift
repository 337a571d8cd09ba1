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
/// `StaticResponder` for each answer, and writes it (head bytes, then the body from memory or,
/// through `sendfile`, from disk). Requests under `/_dppx/` go on to Hummingbird's router.
///
/// **Order and memory.** Requests are answered in order. A request is taken up only while the
/// connection can take more output (NIO's pending bytes under its high-water mark), no file is
/// open for it and Hummingbird owes no answer; until then its parts wait here and nothing more is
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
    /// The access-log line of the request Hummingbird is answering, filled in as it writes.
    private var routedEntry: (entry: AccessLogEntry, start: ContinuousClock.Instant)?

    private enum Work: Equatable {
        case none
        /// A file is being read before the answer can be made.
        case loading
        /// Hummingbird is answering a request for `/_dppx/`.
        case routed(isHead: Bool)
    }

    private enum Reading {
        case nothing
        /// The rest of a request answered here: dropped.
        case discarding
        /// The rest of a request for Hummingbird.
        case routing
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
            // Hummingbird closes once it has answered; otherwise this handler closes when done.
            if case .routed = work { context.fireUserInboundEventTriggered(event) } else { resume(context) }
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
        if work == .none, !closing {
            let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "")
            send(.errorPage(.badRequest, path: "", message: "the request is not valid HTTP/1.1 (\(error))", isHead: false, closes: true),
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
        closing || quiescing || work != .none || openFiles > 0 || !context.channel.isWritable
    }

    private func take(_ part: HTTPServerRequestPart, _ context: ChannelHandlerContext) {
        switch part {
        case .head(let head):
            lastActivity = context.eventLoop.now
            requestStarted = lastActivity
            take(head, context)
        case .body:
            if reading == .routing { context.fireChannelRead(wrapInboundOut(part)) }
        case .end:
            if reading == .routing { context.fireChannelRead(wrapInboundOut(part)) }
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
        let request = FileRequest(method: Self.method(head.method), uri: URI(head.uri), headers: head.headers)
        guard request.hostCount == 1 || (request.hostCount == 0 && head.version == .http1_0) else {
            let reason = request.hostCount == 0 ? "an HTTP/1.1 request needs a Host header" : "the request has more than one Host header"
            send(.errorPage(.badRequest, path: request.uri.path, message: reason, isHead: request.method == .head, closes: true),
                 for: head, start: start, context: context)
            return
        }
        decide(request, head: head, start: start, mayLoad: true, context: context)
    }

    private func decide(_ request: FileRequest, head: HTTPRequestHead, start: ContinuousClock.Instant?, mayLoad: Bool,
                        context: ChannelHandlerContext) {
        switch responder.decide(request) {
        case .answer(let answer):
            if answer.decidedFrom != nil { last = (head, answer) }
            send(answer, for: head, start: start, context: context)
        case .route:
            work = .routed(isHead: head.method == .HEAD)
            if let start {
                routedEntry = (AccessLogEntry(method: head.method.rawValue, target: head.uri, status: 0, bytes: 0, variant: nil,
                                              duration: .zero), start)
            }
            reading = .routing
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .needsRead(let read):
            guard mayLoad else {
                // Replaced again while it was being read: the client asks again.
                let busy = Answer(status: .serviceUnavailable, headers: [.retryAfter: "1"], bytes: ByteBuffer(), isHead: true)
                send(busy, for: head, start: start, context: context)
                return
            }
            work = .loading
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            let loaded = context.eventLoop.makePromise(of: Void.self)
            loaded.completeWithTask { await read() }
            loaded.futureResult.assumeIsolated().whenComplete { _ in
                let (handler, context) = loopBound.value
                guard !handler.closing else { return }
                handler.work = .none
                handler.decide(request, head: head, start: start, mayLoad: false, context: context)
                handler.resume(context)
            }
        }
    }

    private static func method(_ method: HTTPMethod) -> FileRequest.Method {
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
                if responder.files.keepsInMemory(slice) { warm(slice) }
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
        let logLine = start.map { start in
            (logger: accessLogger, method: head.method.rawValue, target: head.uri, status: answer.status.code,
             bytes: sentBytes, variant: answer.variant, start: start)
        }
        done.futureResult.assumeIsolated().whenComplete { result in
            let (handler, context) = loopBound.value
            for file in files { try? file.close() }
            handler.openFiles -= files.count
            handler.lastProgress = context.eventLoop.now
            handler.lastActivity = handler.lastProgress
            if let line = logLine, let logger = line.logger {
                let aborted = (try? result.get()) == nil
                logger.info("\(AccessLogEntry(method: line.method, target: line.target, status: line.status, bytes: aborted ? 0 : line.bytes, variant: line.variant, duration: .now - line.start, aborted: aborted))")
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

    /// Reads a small file into memory off the event loop, so the next requests for it are
    /// answered from there.
    private func warm(_ slice: FileSlice) {
        let files = responder.files
        Task { _ = await files.load(slice) }
    }

    /// Takes up waiting requests while nothing is in the way, then reads on if a read was held.
    private func resume(_ context: ChannelHandlerContext) {
        while let part = waiting.first, canTakeUp(part, context) {
            waiting.removeFirst()
            take(part, context)
        }
        flushIfNeeded(context)
        guard !closing, work == .none, openFiles == 0 else { return }
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

    // MARK: Hummingbird's answers (`/_dppx/`)

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        guard case .routed(let isHead) = work else {
            context.write(data, promise: promise)
            return
        }
        switch part {
        case .head(let head):
            lastProgress = context.eventLoop.now
            routedEntry?.entry.status = Int(head.status.code)
        case .body(let body):
            // NIO's encoder is not told of the request's method: the body of a HEAD answer is dropped here.
            if isHead {
                promise?.succeed()
                return
            }
            routedEntry?.entry.bytes? += body.readableBytes
        case .end:
            if let (entry, start) = routedEntry, let accessLogger {
                var finished = entry
                finished.duration = .now - start
                accessLogger.info("\(finished)")
            }
            routedEntry = nil
            work = .none
            lastActivity = context.eventLoop.now
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.assumeIsolated().execute {
                let (handler, context) = loopBound.value
                handler.resume(context)
            }
        }
        context.write(data, promise: promise)
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
        } else if work == .none, waiting.isEmpty {
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
