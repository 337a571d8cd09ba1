import ServiceLifecycle

/// A server started with `ImageServer.start()`: its port, and a graceful stop.
public final class RunningServer: Sendable {
    /// The port it listens on (the one picked by the system when asked for port 0).
    public let port: Int
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    init(port: Int, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.task = task
    }

    /// Stops accepting connections, lets in-flight requests finish, and returns once stopped.
    public func shutdown() async throws {
        await group.triggerGracefulShutdown()
        try await task.value
    }
}
