import Foundation
import NIOConcurrencyHelpers

/// One DevTools protocol connection to a browser, over its pipe (`PipeTransport`): commands
/// with ids answered through async calls, and events handed to the session (an attached tab,
/// `Target.attachToTarget` with `flatten: true`) they belong to.
public final class DevToolsConnection: Sendable {
    /// An event: its method and parameters.
    public struct Event: Sendable {
        public var method: String
        public var params: JSONValue
    }

    private struct State {
        var nextID = 1
        var pending: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var sessions: [String: (stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation)] = [:]
        var closed: String?
    }

    private let state = NIOLockedValueBox(State())
    private let socket = NIOLockedValueBox<PipeTransport?>(nil)

    public init() {}

    /// Talks to the browser over its DevTools pipe: `input` is the descriptor its answers are
    /// read from, `output` the one its commands are written to (both closed with the connection).
    public func connect(input: Int32, output: Int32) async throws(MeasureError) {
        let client = try await PipeTransport.open(
            input: input, output: output,
            onText: { [weak self] text in self?.receive(text) },
            onClose: { [weak self] error in self?.fail(error.map { "the DevTools connection failed: \($0)" } ?? "the browser closed its DevTools connection (it ended)") })
        socket.withLockedValue { $0 = client }
    }

    /// Why the connection ended (the browser quit or crashed); nil while it is open.
    public var closedReason: String? { state.withLockedValue { $0.closed } }

    /// Sends `method` with `params` (to `session`, or the browser) and waits for its answer's
    /// `result`. A protocol error is thrown with the method's name and the browser's message.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue = [:], session: String? = nil) async throws(MeasureError) -> JSONValue {
        guard let client = socket.withLockedValue({ $0 }) else { throw .browser("not connected") }
        let id = state.withLockedValue { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        do {
            // Cancelled (a page's timeout), the call stops waiting; a late answer is dropped.
            return try await withTaskCancellationHandler {
              try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<JSONValue, any Error>) in
                let accepted: Bool = state.withLockedValue { state in
                    if let reason = state.closed {
                        continuation.resume(throwing: MeasureError.browser(reason))
                        return false
                    }
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                        return false
                    }
                    state.pending[id] = continuation
                    return true
                }
                guard accepted else { return }
                var message: [String: JSONValue] = ["id": .number(Double(id)), "method": .string(method), "params": params]
                if let session { message["sessionId"] = .string(session) }
                let text = JSONValue.object(message).text
                Task {
                    do { try await client.send(text) } catch {
                        if let waiting = self.state.withLockedValue({ $0.pending.removeValue(forKey: id) }) { waiting.resume(throwing: error) }
                    }
                }
              }
            } onCancel: {
                self.state.withLockedValue { $0.pending.removeValue(forKey: id) }?.resume(throwing: CancellationError())
            }
        } catch let error as MeasureError {
            if case .browser(let message) = error, !message.hasPrefix(method) { throw .browser("\(method): \(message)") }
            throw error
        } catch is CancellationError {
            throw .browser("\(method): cancelled")
        } catch {
            throw .browser("\(method): \(error)")
        }
    }

    /// The events of `session`, in the order the browser sent them, from the first one (events
    /// that came before this was asked for are kept).
    public func events(of session: String) -> AsyncStream<Event> {
        state.withLockedValue { Self.stream(of: session, in: &$0).stream }
    }

    /// Ends `session`'s event stream (after its tab is closed).
    public func forget(_ session: String) {
        state.withLockedValue { $0.sessions.removeValue(forKey: session) }?.continuation.finish()
    }

    /// Closes the connection.
    public func close() async {
        await socket.withLockedValue { $0 }?.close()
    }

    /// Starts closing the connection without waiting (from a signal handler): the browser
    /// reads the end of its commands and quits.
    public func closeAtOnce() {
        socket.withLockedValue { $0 }?.closeAtOnce()
    }

    private static func stream(of session: String, in state: inout State) -> (stream: AsyncStream<Event>, continuation: AsyncStream<Event>.Continuation) {
        if let existing = state.sessions[session] { return existing }
        let made = AsyncStream<Event>.makeStream()
        if state.closed != nil { made.continuation.finish() }
        state.sessions[session] = made
        return made
    }

    private func receive(_ text: String) {
        guard let message = JSONValue(parsing: Array(text.utf8)) else { return }
        if let id = message["id"]?.number.map(Int.init) {
            guard let continuation = state.withLockedValue({ $0.pending.removeValue(forKey: id) }) else { return }
            if let error = message["error"] {
                continuation.resume(throwing: MeasureError.browser(error["message"]?.string ?? error.text))
            } else {
                continuation.resume(returning: message["result"] ?? [:])
            }
        } else if let method = message["method"]?.string, let session = message["sessionId"]?.string {
            let event = Event(method: method, params: message["params"] ?? [:])
            state.withLockedValue { Self.stream(of: session, in: &$0).continuation }.yield(event)
        }
    }

    private func fail(_ reason: String) {
        let (pending, sessions) = state.withLockedValue { state in
            state.closed = state.closed ?? reason
            defer { state.pending = [:] }
            return (state.pending.values, state.sessions.values.map(\.continuation))
        }
        for continuation in pending { continuation.resume(throwing: MeasureError.browser(reason)) }
        for continuation in sessions { continuation.finish() }
    }
}
