@testable import DPPXServer
import NIOCore
import NIOHTTP1
import Testing

/// The connection's rules on their own, without a channel: what is taken up, what waits, when
/// the socket is read, when the connection closes, and which deadline applies.
@Suite("a connection's rules")
struct ConnectionStateTests {
    static let start = NIODeadline.uptimeNanoseconds(1_000_000_000)
    static let timeout = TimeAmount.seconds(30)

    static func head(_ uri: String = "/") -> HTTPServerRequestPart {
        .head(HTTPRequestHead(version: .http1_1, method: .GET, uri: uri, headers: ["Host": "x"]))
    }

    static func at(_ seconds: Int64) -> NIODeadline {
        start + .seconds(seconds)
    }

    func fresh(maximumWaitingParts: Int = 256) -> ConnectionState {
        ConnectionState(timeout: Self.timeout, maximumWaitingParts: maximumWaitingParts, now: Self.start)
    }

    @Test("a request is taken up at once; one pipelined behind an answer being made waits, and is taken up after it")
    func pipelinedRequestsWait() {
        var state = fresh()
        #expect(state.partRead(Self.head("/a"), isWritable: true, now: Self.at(0)) == .takeUp(Self.head("/a")))
        state.loadStarted()
        #expect(state.partRead(.end(nil), isWritable: true, now: Self.at(0)) == .takeUp(.end(nil)), "the rest of a request is always taken")
        #expect(state.partRead(Self.head("/b"), isWritable: true, now: Self.at(0)) == .wait)
        #expect(state.partRead(.end(nil), isWritable: true, now: Self.at(0)) == .wait, "behind its head")
        #expect(state.resume(isWritable: true, now: Self.at(1)) == .none, "still loading")
        #expect(state.loadFinished() == true)
        #expect(state.resume(isWritable: true, now: Self.at(1)) == .takeUp(Self.head("/b")))
        #expect(state.resume(isWritable: true, now: Self.at(1)) == .takeUp(.end(nil)))
        #expect(state.resume(isWritable: true, now: Self.at(1)) == .none)
        #expect(state.waiting.isEmpty)
    }

    @Test("a client that does not read its answers: requests wait, no read is made, and it is read again once it reads")
    func readsHeldWhileNotWritable() {
        var state = fresh()
        #expect(state.readRequested(isWritable: false) == false)
        #expect(state.partRead(Self.head(), isWritable: false, now: Self.at(0)) == .wait)
        #expect(state.readRequested(isWritable: true) == false, "a request waits: no more are read")
        #expect(state.resume(isWritable: false, now: Self.at(1)) == .none)
        state.writabilityChanged(isWritable: true, now: Self.at(2))
        #expect(state.resume(isWritable: true, now: Self.at(2)) == .takeUp(Self.head()))
        #expect(state.resume(isWritable: true, now: Self.at(2)) == .read, "the held read is made")
        #expect(state.resume(isWritable: true, now: Self.at(2)) == .none, "once")
        #expect(state.readRequested(isWritable: true) == true)
    }

    @Test("an answer sent from files holds the next request until its files are closed")
    func filesInTheWay() {
        var state = fresh()
        _ = state.partRead(Self.head("/big"), isWritable: true, now: Self.at(0))
        state.answerStarted(closes: false, now: Self.at(0))
        state.filesOpened(1)
        #expect(state.partRead(Self.head("/next"), isWritable: true, now: Self.at(0)) == .wait)
        #expect(state.answerSent(files: 1, now: Self.at(1)) == .resume)
        #expect(state.resume(isWritable: true, now: Self.at(1)) == .takeUp(Self.head("/next")))
        state.answerStarted(closes: false, now: Self.at(1))
        #expect(state.answerSent(files: 0, now: Self.at(1)) == .none, "an answer from memory held nothing back")
    }

    @Test("more request parts waiting than the limit: the connection is aborted, and later parts are dropped")
    func waitingLimit() {
        var state = fresh(maximumWaitingParts: 4)
        #expect(state.partRead(Self.head(), isWritable: true, now: Self.at(0)) == .takeUp(Self.head()))
        state.loadStarted()
        for _ in 0..<4 { #expect(state.partRead(Self.head(), isWritable: true, now: Self.at(0)) == .wait) }
        #expect(state.partRead(Self.head(), isWritable: true, now: Self.at(0)) == .abort)
        #expect(state.waiting.isEmpty && state.closing)
        #expect(state.partRead(Self.head(), isWritable: true, now: Self.at(0)) == .drop)
    }

    @Test("graceful shutdown: no new request is taken up, and the connection closes once the answer in progress is sent")
    func quiesce() {
        var state = fresh()
        _ = state.partRead(Self.head(), isWritable: true, now: Self.at(0))
        state.answerStarted(closes: false, now: Self.at(0))
        state.filesOpened(1)
        state.quiesce()
        #expect(state.resume(isWritable: true, now: Self.at(0)) == .none, "the answer is still being sent")
        #expect(state.partRead(Self.head("/later"), isWritable: true, now: Self.at(0)) == .wait)
        #expect(state.answerSent(files: 1, now: Self.at(1)) == .resume)
        #expect(state.resume(isWritable: true, now: Self.at(1)) == .close)
        #expect(state.partRead(Self.head("/after"), isWritable: true, now: Self.at(1)) == .drop)
    }

    @Test("a client that shut its side: every request it sent is answered, then the connection closes")
    func inputClosed() {
        var state = fresh()
        #expect(state.partRead(Self.head("/a"), isWritable: true, now: Self.at(0)) == .takeUp(Self.head("/a")))
        state.loadStarted()
        #expect(state.partRead(Self.head("/b"), isWritable: true, now: Self.at(0)) == .wait)
        state.inputClosed()
        #expect(state.resume(isWritable: true, now: Self.at(0)) == .none)
        #expect(state.loadFinished() == true)
        #expect(state.resume(isWritable: true, now: Self.at(0)) == .takeUp(Self.head("/b")))
        #expect(state.resume(isWritable: true, now: Self.at(0)) == .close)
    }

    @Test("an answer that says Connection: close ends the connection once sent; a read finishing after the close is dropped")
    func closingAnswers() {
        var state = fresh()
        _ = state.partRead(Self.head(), isWritable: true, now: Self.at(0))
        state.answerStarted(closes: true, now: Self.at(0))
        #expect(state.partRead(Self.head("/next"), isWritable: true, now: Self.at(0)) == .drop)
        #expect(state.answerSent(files: 0, now: Self.at(0)) == .close)

        var loading = fresh()
        loading.loadStarted()
        loading.closed()
        #expect(loading.loadFinished() == false)
    }

    @Test("a request NIO cannot parse: answered 400 when nothing is in progress, the connection aborted otherwise")
    func parseErrors() {
        var idle = fresh()
        #expect(idle.parseError() == .answerBadRequest)
        var busy = fresh()
        busy.loadStarted()
        _ = busy.partRead(Self.head(), isWritable: true, now: Self.at(0))
        _ = busy.partRead(Self.head(), isWritable: true, now: Self.at(0))
        #expect(busy.parseError() == .abort)
        #expect(busy.waiting.isEmpty && busy.closing)
    }

    @Test("the live-reload stream holds the next request; its end resumes, or closes an HTTP/1.0 connection")
    func streams() {
        var state = fresh()
        _ = state.partRead(Self.head("/_dppx/events"), isWritable: true, now: Self.at(0))
        state.streamStarted(closes: false, now: Self.at(0))
        #expect(state.partRead(.end(nil), isWritable: true, now: Self.at(0)) == .takeUp(.end(nil)))
        #expect(state.partRead(Self.head("/"), isWritable: true, now: Self.at(1)) == .wait)
        #expect(state.deadline(now: Self.at(100), isWritable: true) == .wait(until: Self.at(130)), "a stream is never idle")
        #expect(state.streamEnded(now: Self.at(100)) == .resume)
        #expect(state.resume(isWritable: true, now: Self.at(100)) == .takeUp(Self.head("/")))

        var old = fresh()
        _ = old.partRead(Self.head("/_dppx/events"), isWritable: true, now: Self.at(0))
        old.streamStarted(closes: true, now: Self.at(0))
        #expect(old.streamEnded(now: Self.at(5)) == .close)
    }

    @Test("idle and dribbled headers: closed one timeout after the last request ended, whatever is read meanwhile")
    func idleDeadline() {
        var state = fresh()
        #expect(state.deadline(now: Self.at(10), isWritable: true) == .wait(until: Self.at(30)))
        #expect(state.deadline(now: Self.at(30), isWritable: true) == .abort)
        // A request answered at 20 s moves the idle deadline to 50 s.
        var served = fresh()
        _ = served.partRead(Self.head(), isWritable: true, now: Self.at(20))
        _ = served.partRead(.end(nil), isWritable: true, now: Self.at(20))
        state = served
        #expect(state.deadline(now: Self.at(40), isWritable: true) == .wait(until: Self.at(50)))
        #expect(state.deadline(now: Self.at(50), isWritable: true) == .abort)
    }

    @Test("a request whose end never comes is closed one timeout after its head")
    func bodyDeadline() {
        var state = fresh()
        _ = state.partRead(Self.head(), isWritable: true, now: Self.at(5))
        #expect(state.readingRequest)
        #expect(state.partRead(.body(ByteBuffer(string: "a")), isWritable: true, now: Self.at(20)) == .takeUp(.body(ByteBuffer(string: "a"))))
        #expect(state.deadline(now: Self.at(20), isWritable: true) == .wait(until: Self.at(35)), "body bytes do not move it")
        #expect(state.deadline(now: Self.at(35), isWritable: true) == .abort)
    }

    @Test("a client that stopped reading is closed one timeout after its answer last moved; an answer being made is not idle")
    func progressDeadline() {
        var state = fresh()
        _ = state.partRead(Self.head(), isWritable: true, now: Self.at(0))
        _ = state.partRead(.end(nil), isWritable: true, now: Self.at(0))
        state.answerStarted(closes: false, now: Self.at(0))
        state.filesOpened(1)
        state.progressed(now: Self.at(10))
        #expect(state.deadline(now: Self.at(20), isWritable: false) == .wait(until: Self.at(40)))
        #expect(state.deadline(now: Self.at(40), isWritable: false) == .abort)

        var loading = fresh()
        _ = loading.partRead(Self.head(), isWritable: true, now: Self.at(0))
        _ = loading.partRead(.end(nil), isWritable: true, now: Self.at(0))
        loading.loadStarted()
        #expect(loading.deadline(now: Self.at(100), isWritable: true) == .wait(until: Self.at(130)))
    }

    @Test("the phase says what holds the next request: a file being read, the files an answer is sent from, the event stream")
    func phases() {
        var state = fresh()
        #expect(state.phase == .ready)
        _ = state.partRead(Self.head("/page"), isWritable: true, now: Self.at(0))
        state.loadStarted()
        #expect(state.phase == .loading)
        #expect(state.loadFinished() == true)
        state.answerStarted(closes: false, now: Self.at(0))
        state.filesOpened(0)
        #expect(state.phase == .ready, "an answer from memory holds nothing")
        state.filesOpened(2)
        #expect(state.phase == .sending(files: 2))
        #expect(state.answerSent(files: 0, now: Self.at(1)) == .none, "an earlier answer from memory")
        #expect(state.phase == .sending(files: 2))
        #expect(state.answerSent(files: 2, now: Self.at(1)) == .resume)
        #expect(state.phase == .ready)
        state.streamStarted(closes: false, now: Self.at(2))
        #expect(state.phase == .streaming)
        #expect(state.streamEnded(now: Self.at(3)) == .resume)
        #expect(state.phase == .ready)
    }

    @Test("a request NIO cannot parse behind an answer sent from a file is answered 400 after it")
    func parseErrorWhileSending() {
        var state = fresh()
        _ = state.partRead(Self.head("/big"), isWritable: true, now: Self.at(0))
        state.answerStarted(closes: false, now: Self.at(0))
        state.filesOpened(1)
        #expect(state.parseError() == .answerBadRequest)
        #expect(!state.readingRequest)
    }

    @Test("how a connection ends: graceful shutdown outranks a shut input, and closing outranks both")
    func lifecycle() {
        var state = fresh()
        state.inputClosed()
        #expect(state.lifecycle == .inputEnded)
        state.quiesce()
        #expect(state.lifecycle == .quiescing)
        state.inputClosed()
        #expect(state.lifecycle == .quiescing, "a shut input after shutdown began changes nothing")
        #expect(state.resume(isWritable: true, now: Self.at(0)) == .close)
        #expect(state.lifecycle == .closing)
        state.quiesce()
        state.inputClosed()
        #expect(state.closing, "nothing reopens a closing connection")
        #expect(state.resume(isWritable: true, now: Self.at(0)) == .none, "and it is closed once")
    }

    // The rules the socket tests once waited out in wall-clock time, step by step at explicit
    // instants (the socket tests keep one short run per rule, for the wiring).

    @Test("headers dribbled a byte at a time: nothing reaches the connection until the head is whole, so it closes one timeout after it opened")
    func dribbledHeaders() {
        var state = fresh()
        // A byte every 250 ms for 35 s: no part is parsed, the deadline never moves.
        for quarter in 0..<(4 * 30) {
            let now = Self.start + .milliseconds(Int64(quarter) * 250)
            #expect(state.deadline(now: now, isWritable: true) == .wait(until: Self.at(30)))
        }
        #expect(state.deadline(now: Self.at(30), isWritable: true) == .abort)
        // After a request: one timeout after its end, however long its headers took.
        var served = fresh()
        _ = served.partRead(Self.head(), isWritable: true, now: Self.at(29))
        _ = served.partRead(.end(nil), isWritable: true, now: Self.at(29))
        #expect(served.deadline(now: Self.at(58), isWritable: true) == .wait(until: Self.at(59)))
        #expect(served.deadline(now: Self.at(59), isWritable: true) == .abort)
    }

    @Test("a request body dribbled a byte at a time (by length or chunked): cut off one timeout after its head, each byte well within it")
    func dribbledBody() {
        var state = fresh()
        _ = state.partRead(Self.head(), isWritable: true, now: Self.at(0))
        for fifth in 1..<(5 * 30) {
            let now = Self.start + .milliseconds(Int64(fifth) * 200)
            #expect(state.partRead(.body(ByteBuffer(string: "a")), isWritable: true, now: now) == .takeUp(.body(ByteBuffer(string: "a"))))
            #expect(state.deadline(now: now, isWritable: true) == .wait(until: Self.at(30)))
        }
        #expect(state.deadline(now: Self.at(30), isWritable: true) == .abort)
    }

    @Test("a client that stops reading an answer from memory is cut off one timeout after it last read, as one reading a file")
    func stalledReaderOfMemory() {
        var state = fresh()
        _ = state.partRead(Self.head(), isWritable: true, now: Self.at(0))
        _ = state.partRead(.end(nil), isWritable: true, now: Self.at(0))
        state.answerStarted(closes: false, now: Self.at(0))
        state.filesOpened(0)
        #expect(state.deadline(now: Self.at(20), isWritable: false) == .wait(until: Self.at(30)))
        #expect(state.deadline(now: Self.at(30), isWritable: false) == .abort)
        // Writes that complete move it.
        var reading = fresh()
        _ = reading.partRead(Self.head(), isWritable: true, now: Self.at(0))
        reading.answerStarted(closes: false, now: Self.at(0))
        reading.filesOpened(1)
        for second in 1...60 {
            reading.progressed(now: Self.at(Int64(second)))
            #expect(reading.deadline(now: Self.at(Int64(second)), isWritable: false) == .wait(until: Self.at(Int64(second) + 30)))
        }
    }
}
