import NIOCore
import NIOHTTP1

/// The rules of one HTTP/1 connection, apart from any channel: which request parts are taken
/// up now and which wait, when the socket is read again, when the connection closes, and which
/// deadline applies. `ConnectionHandler` tells it what happened and does what it answers, in the
/// manner of NIO's own state machines (`HTTPServerPipelineHandler`, `NIOAsyncWriter`), so the
/// rules are tested without a channel (`ConnectionStateTests`). Like NIO's, it is kept in
/// enums, one per thing that moves on its own: the answer in progress (`Phase`, with the files
/// it holds open), the request being read (`Reading`, with when it began) and how the
/// connection ends (`Lifecycle`), so no contradictory state (a file open while another answer
/// is being made, quiescing while closed) can be written down.
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
    /// The answer in progress that holds the next request back, with what it holds. Answers
    /// written from memory hold nothing back, so several may be on their way in any phase.
    enum Phase: Equatable {
        /// Requests are taken up as they come.
        case ready
        /// An answer is being made from a file being read.
        case loading
        /// An answer is being sent from `files` open files (at least one).
        case sending(files: Int)
        /// An endless answer is being sent (the live-reload events).
        case streaming
    }

    /// Where the request being read is: NIO hands a request over as a head, body parts and an end.
    enum Reading: Equatable {
        /// Between requests: the next part is a head.
        case betweenRequests
        /// From a request's head, taken up `since`, to its end.
        case request(since: NIODeadline)
    }

    /// How the connection ends, the phase aside (as NIO keeps `lifecycleState` apart from
    /// `state` in `HTTPServerPipelineHandler`): each case is stronger than those above it.
    enum Lifecycle: Equatable {
        /// Open for requests.
        case open
        /// The client shut its side: every request read is answered, then the connection closes.
        case inputEnded
        /// Graceful shutdown: no new request is taken up; it closes once the answers are sent.
        case quiescing
        /// It closes once its answers are written, or has closed: nothing more is taken up.
        case closing
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
    private(set) var phase = Phase.ready
    private(set) var reading = Reading.betweenRequests
    private(set) var lifecycle = Lifecycle.open
    /// Request parts read and not taken up yet.
    private(set) var waiting = CircularBuffer<HTTPServerRequestPart>()
    /// A read was asked for while no request could be taken up: it is done on resuming.
    private var readHeld = false
    /// By the event loop's clock (which tests can move): the last request head or end taken
    /// up, answer sent or client read (the idle rule), and the last time an answer moved (the
    /// rule for a client that stopped reading).
    private var lastActivity: NIODeadline
    private var lastProgress: NIODeadline

    init(timeout: TimeAmount, maximumWaitingParts: Int, now: NIODeadline) {
        self.timeout = timeout
        self.maximumWaitingParts = maximumWaitingParts
        lastActivity = now
        lastProgress = now
    }

    /// The connection closes once its answers are written, or has closed.
    var closing: Bool { lifecycle == .closing }

    /// From a request's head to its end.
    var readingRequest: Bool { reading != .betweenRequests }

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
        guard phase == .ready, !closing else { return .none }
        if lifecycle == .quiescing || (lifecycle == .inputEnded && waiting.isEmpty) {
            lifecycle = .closing
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
        reading = .betweenRequests
        // An answer still being sent from files is not in the way: the 400 goes out after it.
        guard phase != .loading, phase != .streaming, !closing else {
            abort()
            return .abort
        }
        return .answerBadRequest
    }

    /// Graceful shutdown began; resume next.
    mutating func quiesce() {
        if lifecycle != .closing { lifecycle = .quiescing }
    }

    /// The client shut its side of the connection; resume next.
    mutating func inputClosed() {
        if lifecycle == .open { lifecycle = .inputEnded }
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
        if closes { lifecycle = .closing }
    }

    /// Files were opened to send an answer's body from.
    mutating func filesOpened(_ count: Int) {
        guard count > 0 else { return }
        // Only ever while ready or sending: a new request waits for anything else.
        if case .sending(let files) = phase {
            phase = .sending(files: files + count)
        } else {
            phase = .sending(files: count)
        }
    }

    /// A piece of a body reached the socket.
    mutating func progressed(now: NIODeadline) {
        lastProgress = now
    }

    /// An answer's body cannot be completed (its file changed after the head was written):
    /// closing tells the client it is incomplete.
    mutating func answerCut() {
        lifecycle = .closing
    }

    /// What to do once an answer with `files` open files was sent.
    enum SentAction: Equatable {
        case close
        case resume
        case none
    }

    /// An answer was sent (or failed), its files closed.
    mutating func answerSent(files: Int, now: NIODeadline) -> SentAction {
        if files > 0, case .sending(let open) = phase {
            phase = open > files ? .sending(files: open - files) : .ready
        }
        lastProgress = now
        lastActivity = now
        if closing { return .close }
        return files > 0 ? .resume : .none
    }

    /// The answer is made from a file being read first.
    mutating func loadStarted() {
        phase = .loading
    }

    /// The read is done: true to decide the answer again, false when the connection closed meanwhile.
    mutating func loadFinished() -> Bool {
        guard !closing else { return false }
        phase = .ready
        return true
    }

    /// An endless answer began; `closes`: the connection closes when it ends.
    mutating func streamStarted(closes: Bool, now: NIODeadline) {
        phase = .streaming
        answerStarted(closes: closes, now: now)
    }

    /// The endless answer ended: close, or resume.
    mutating func streamEnded(now: NIODeadline) -> SentAction {
        phase = .ready
        lastActivity = now
        return closing ? .close : .resume
    }

    // MARK: Closing and time

    /// Closing now, whatever is unsent.
    mutating func abort() {
        lifecycle = .closing
        waiting.removeAll()
    }

    /// The channel closed.
    mutating func closed() {
        lifecycle = .closing
    }

    /// The rule that applies now, and whether its deadline has passed.
    func deadline(now: NIODeadline, isWritable: Bool) -> TimerAction {
        let deadline: NIODeadline
        if case .sending = phase {
            deadline = lastProgress + timeout           // the client stopped reading
        } else if !isWritable {
            deadline = lastProgress + timeout           // the same, of answers from memory
        } else if case .request(let since) = reading {
            deadline = since + timeout                  // a request body dribbled
        } else if phase == .ready, waiting.isEmpty {
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
        lifecycle == .closing || lifecycle == .quiescing || phase != .ready || !isWritable
    }

    private mutating func takingUp(_ part: HTTPServerRequestPart, now: NIODeadline) {
        switch part {
        case .head:
            lastActivity = now
            reading = .request(since: now)
        case .body:
            break
        case .end:
            reading = .betweenRequests
            lastActivity = now
        }
    }
}
