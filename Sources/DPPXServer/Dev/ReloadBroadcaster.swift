import Foundation
import NIOConcurrencyHelpers

/// Fans server-sent events out to every open page in dev mode: build status after each build,
/// `reload` when the build changed something, and heartbeats.
///
/// Each page's `/_dppx/events` response reads its own stream. `finishAll()` ends every stream
/// (graceful shutdown must not wait for pages that would listen forever).
public final class ReloadBroadcaster: Sendable {
    private struct State {
        var listeners: [UUID: AsyncStream<String>.Continuation] = [:]
        var closed = false
    }

    private let state = NIOLockedValueBox(State())

    public init() {}

    /// A new listener's stream of event texts (already framed as `event:`/`data:` lines).
    public func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let id = UUID()
        let accepted = state.withLockedValue { state -> Bool in
            guard !state.closed else { return false }
            state.listeners[id] = continuation
            return true
        }
        guard accepted else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    /// Sends `data` as an event named `name` to every listener.
    public func send(event name: String, data: String) {
        broadcast(Self.frame(event: name, data: data))
    }

    /// A comment line: keeps connections alive through proxies and notices closed pages.
    public func heartbeat() {
        broadcast(": keep-alive\n\n")
    }

    /// Ends every stream; later subscribers get an empty one.
    public func finishAll() {
        let listeners = state.withLockedValue { state -> [AsyncStream<String>.Continuation] in
            state.closed = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        for listener in listeners { listener.finish() }
    }

    /// How many pages are listening.
    public var listenerCount: Int { state.withLockedValue { $0.listeners.count } }

    /// `event: NAME` and one `data:` line per line of `data`, then a blank line.
    static func frame(event name: String, data: String) -> String {
        var text = "event: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    private func broadcast(_ text: String) {
        let listeners = state.withLockedValue { Array($0.listeners.values) }
        for listener in listeners { listener.yield(text) }
    }
}
