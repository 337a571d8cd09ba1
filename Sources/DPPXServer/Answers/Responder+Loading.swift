import NIOCore
import NIOHTTP1
import NIOPosix

extension Responder {
    /// An answer now, or once what its decision waits for is done.
    enum Outcome {
        case now(Answer)
        /// Completes, never with an error, on the event loop given to `answer(to:on:)`.
        case later(EventLoopFuture<Answer>)
    }

    /// The answer to a parsed request head, with whatever `decide` leaves to do done: the one
    /// sequence a connection takes (`ConnectionHandler`), and the one tests take without a socket.
    /// The head becomes a `ClientRequest` (a 400 that closes when its `Host` lines are wrong),
    /// then `decide`; a read it needs, then `decide` again (a 503 with `Retry-After` when the
    /// file was replaced again while it was read: the client asks again); an answer made off the
    /// loop, on NIO's thread pool (a 503 when the pool is stopped). Call on `eventLoop`.
    func answer(to head: HTTPRequestHead, on eventLoop: any EventLoop) -> Outcome {
        let request = ClientRequest(head)
        guard request.hostCount == 1 || (request.hostCount == 0 && head.version == .http1_0) else {
            let reason = request.hostCount == 0 ? "an HTTP/1.1 request needs a Host header" : "the request has more than one Host header"
            return .now(.errorPage(.badRequest, path: request.uri.path, message: reason, isHead: request.method == .head, closes: true))
        }
        return answer(request, on: eventLoop, mayRead: true)
    }

    private func answer(_ request: ClientRequest, on eventLoop: any EventLoop, mayRead: Bool) -> Outcome {
        switch decide(request) {
        case .answer(let answer):
            return .now(answer)
        case .needsRead(let read):
            // Replaced again while it was being read: the client asks again.
            guard mayRead else { return .now(Self.busy) }
            let promise = eventLoop.makePromise(of: Answer.self)
            read(eventLoop).hop(to: eventLoop).assumeIsolated().whenComplete { _ in
                switch self.answer(request, on: eventLoop, mayRead: false) {
                case .now(let answer): promise.assumeIsolated().succeed(answer)
                case .later(let answer): answer.assumeIsolated().whenComplete { promise.assumeIsolated().completeWith($0) }
                }
            }
            return .later(promise.futureResult)
        case .madeOffLoop(let make):
            let promise = eventLoop.makePromise(of: Answer.self)
            NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop, make).hop(to: eventLoop).assumeIsolated().whenComplete { result in
                promise.assumeIsolated().succeed((try? result.get()) ?? Self.busy)
            }
            return .later(promise.futureResult)
        }
    }

    /// Ask again in a second.
    static var busy: Answer {
        Answer(status: .serviceUnavailable, headers: [.retryAfter: "1"], bytes: ByteBuffer(), isHead: true)
    }
}
