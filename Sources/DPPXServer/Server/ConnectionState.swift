import NIOCore
import NIOHTTP1

/// The rules of one HTTP/1 connection, apart from any channel: which request parts are taken
/// up now and which wait, when the socket is read again, when the connection closes, and which
/// deadline applies. `ConnectionHandler` tells it what happened and does what it answers, in the
/// manner of NIO's own state machines (`HTTPServerPipelineHandler`, `NIOAsyncWriter`), so the
/// rules are tested without a channel (`ConnectionStateTests`).
///
/// **Order and memory.** A new request is taken up only when nothing is in the way: no answer
/// being made (a file being read) or streamed, no file open for an answer being sent, a client
/// that reads its answers (the channel writable), a connection neither closing nor quiescing.
/// Until then its parts wait here, at most `maximumWaitingParts`, and the socket is not read.
///
/// **Time.** One clock, `timeout`, for each rule (`deadline`): a connection with nothing in
/// progress that completes no request head in that time is closed (idle keep-alive, headers
/// dribbled byte by byte: reads do not reset it); so is one whose request has not ended that
/// long after its head, and one whose answers have not moved for that long (a client that
/// stopped reading). A request waiting for its answer is not idle.
struct ConnectionState {
    /// What is in progress besides answers being written.
    enum Work: Equatable {
        case none
        /// An answer is being made from a file being read.
        case loading
        /// An endless answer is being sent (the live-reload events).
        case streaming
    }

    /// What to do with a request part just read.
    enum PartAction: Equatable {
        /// Answer it now (a head), or drop it (the rest of a request already answered).
        case takeUp(HTTPServerRequestPart)
        /// It waits until what is in the way is done.
        case wait
        /// Too many parts waiting: the client is not reading its answers. Close now.
        case abort
        /// The connection is closing: ignore it.
        case drop
    }

    /// What to do next once something that was in the way is done; asked until `.none`.
    enum ResumeAction: Equatable {
        case takeUp(HTTPServerRequestPart)
        /// Close once the bytes written are sent.
        case close
        /// Read the socket (a read was held back).
        case read
        case none
    }

    /// What to do about a request NIO cannot parse.
    enum ParseErrorAction: Equatable {
        /// Answer 400 and close.
        case answerBadRequest
        /// An answer is in progress: close now.
        case abort
    }

    /// What to do when the connection's timer fires.
    enum TimerAction: Equatable {
        case abort
        case wait(until: NIODeadline)
    }

    let timeout: TimeAmount
    let maximumWaitingParts: Int
    /// Request parts read and not taken up yet.
    private(set) var waiting = CircularBuffer<HTTPServerRequestPart>()
    private(set) var work = Work.none
    /// Files open for answers being sent.
    private(set) var openFiles = 0
    /// From a request's head to its end.
    private(set) var readingRequest = false
    /// A read was asked for while no request could be taken up: it is done on resuming.
    private var readHeld = false
    /// The connection closes once its answers are sent, or has closed.
    private(set) var closing = false
    /// Graceful shutdown: no new request is taken up; close once the answers are sent.
    private var quiescing = false
    /// The client shut its side: close once every request read is answered.
    private var inputEnded = false
    /// By the event loop's clock (which tests can move).
    private var lastActivity: NIODeadline
    private var lastProgress: NIODeadline
    private var requestStarted: NIODeadline

    init(timeout: TimeAmount, maximumWaitingParts: Int, now: NIODeadline) {
        self.timeout = timeout
        self.maximumWaitingParts = maximumWaitingParts
        lastActivity = now
        lastProgress = now
        requestStarted = now
    }

    /// The connection is open: the idle rule starts now.
    mutating func started(now: NIODeadline) {
        lastActivity = now
    }

    // MARK: Requests

    /// A request part was read.
    mutating func partRead(_ part: HTTPServerRequestPart, isWritable: Bool, now: NIODeadline) -> PartAction {
        guard !closing else { return .drop }
        if waiting.isEmpty, canTakeUp(part, isWritable: isWritable) {
            takingUp(part, now: now)
            return .takeUp(part)
        }
        guard waiting.count < maximumWaitingParts else {
            // More requests than one read holds, unanswered because their answers are not read
            // (NIO reads a closing socket to its end): the client is not reading.
            abort()
            return .abort
        }
        waiting.append(part)
        return .wait
    }

    /// The pipeline asks for a read: true to read now, false while requests cannot be taken up
    /// (the read is made on resuming).
    mutating func readRequested(isWritable: Bool) -> Bool {
        guard isStalled(isWritable: isWritable) || !waiting.isEmpty else { return true }
        readHeld = true
        return false
    }

    /// The next thing to do now that something in the way may be done: take up a waiting
    /// part, close, read, or nothing.
    mutating func resume(isWritable: Bool, now: NIODeadline) -> ResumeAction {
        if let part = waiting.first, canTakeUp(part, isWritable: isWritable) {
            waiting.removeFirst()
            takingUp(part, now: now)
            return .takeUp(part)
        }
        guard !closing, work == .none, openFiles == 0 else { return .none }
        if quiescing || (inputEnded && waiting.isEmpty) {
            closing = true
            return .close
        }
        if readHeld, waiting.isEmpty, isWritable {
            readHeld = false
            return .read
        }
        return .none
    }

    /// A request NIO cannot parse: nothing more can be read.
    mutating func parseError() -> ParseErrorAction {
        waiting.removeAll()
        readingRequest = false
        guard work == .none, !closing else {
            abort()
            return .abort
        }
        return .answerBadRequest
    }

    /// Graceful shutdown began; resume next.
    mutating func quiesce() {
        quiescing = true
    }

    /// The client shut its side of the connection; resume next.
    mutating func inputClosed() {
        inputEnded = true
    }

    /// The channel became writable again (the client read), or not; resume next.
    mutating func writabilityChanged(isWritable: Bool, now: NIODeadline) {
        guard isWritable else { return }
        lastProgress = now
        lastActivity = now
    }

    // MARK: Answers

    /// An answer's head is written; `closes`: the connection closes once it is sent.
    mutating func answerStarted(closes: Bool, now: NIODeadline) {
        lastProgress = now
        if closes { closing = true }
    }

    /// Files were opened to send an answer's body from.
    mutating func filesOpened(_ count: Int) {
        openFiles += count
    }

    /// A piece of a body reached the socket.
    mutating func progressed(now: NIODeadline) {
        lastProgress = now
    }

    /// An answer's body cannot be completed (its file changed after the head was written):
    /// closing tells the client it is incomplete.
    mutating func answerCut() {
        closing = true
    }

    /// What to do once an answer with `files` open files was sent.
    enum SentAction: Equatable {
        case close
        case resume
        case none
    }

    /// An answer was sent (or failed), its files closed.
    mutating func answerSent(files: Int, now: NIODeadline) -> SentAction {
        openFiles -= files
        lastProgress = now
        lastActivity = now
        if closing { return .close }
        return files > 0 ? .resume : .none
    }

    /// The answer is made from a file being read first.
    mutating func loadStarted() {
        work = .loading
    }

    /// The read is done: true to decide the answer again, false when the connection closed meanwhile.
    mutating func loadFinished() -> Bool {
        guard !closing else { return false }
        work = .none
        return true
    }

    /// An endless answer began; `closes`: the connection closes when it ends.
    mutating func streamStarted(closes: Bool, now: NIODeadline) {
        work = .streaming
        answerStarted(closes: closes, now: now)
    }

    /// The endless answer ended: close, or resume.
    mutating func streamEnded(now: NIODeadline) -> SentAction {
        work = .none
        lastActivity = now
        return closing ? .close : .resume
    }

    // MARK: Closing and time

    /// Closing now, whatever is unsent.
    mutating func abort() {
        closing = true
        waiting.removeAll()
    }

    /// The channel closed.
    mutating func closed() {
        closing = true
    }

    /// The rule that applies now, and whether its deadline has passed.
    func deadline(now: NIODeadline, isWritable: Bool) -> TimerAction {
        let deadline: NIODeadline
        if openFiles > 0 || !isWritable {
            deadline = lastProgress + timeout           // the client stopped reading
        } else if readingRequest {
            deadline = requestStarted + timeout         // a request body dribbled
        } else if work == .none, waiting.isEmpty {
            deadline = lastActivity + timeout           // idle, or headers dribbled
        } else {
            deadline = now + timeout                    // an answer being made
        }
        return deadline <= now ? .abort : .wait(until: deadline)
    }

    /// Whether `part` can be taken up now: the rest of a request always can, a new request only
    /// when nothing is in the way.
    private func canTakeUp(_ part: HTTPServerRequestPart, isWritable: Bool) -> Bool {
        if case .head = part { return !isStalled(isWritable: isWritable) }
        return true
    }

    private func isStalled(isWritable: Bool) -> Bool {
        closing || quiescing || work != .none || openFiles > 0 || !isWritable
    }

    private mutating func takingUp(_ part: HTTPServerRequestPart, now: NIODeadline) {
        switch part {
        case .head:
            lastActivity = now
            requestStarted = now
            readingRequest = true
        case .body:
            break
        case .end:
            readingRequest = false
            lastActivity = now
        }
    }
}
