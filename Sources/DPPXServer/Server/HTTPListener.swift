import HummingbirdCore
import Logging
import NIOCore
import NIOExtras
import NIOPosix
import ServiceLifecycle

/// `dppx serve`'s listening socket, as a ServiceLifecycle service: binds, announces its port,
/// accepts connections (`ConnectionPipeline`) until graceful shutdown, then stops accepting and
/// returns once every open connection has finished the answers it had begun.
///
/// Everything runs on NIO's event loops and thread pool, never on Swift's cooperative pool:
/// accepting and serving go on while synchronous work (a dev-mode build) holds that pool.
public struct HTTPListener: Service {
    let host: String
    let port: Int
    /// Connections past this many wait in the listen queue until others close (`DescriptorLimit`).
    let maximumConnections: Int
    let pipeline: ConnectionPipeline
    let onRunning: @Sendable (Int) async -> Void
    let logger: Logger

    public func run() async throws {
        let group = MultiThreadedEventLoopGroup.singleton
        let quiescing = ServerQuiescingHelper(group: group)
        let (maximumConnections, logger, pipeline) = (self.maximumConnections, self.logger, self.pipeline)
        let listener = try await ServerBootstrap(group: group)
            // Clients past the maximum wait in the listen queue (nginx's is 511 on Linux).
            .serverChannelOption(ChannelOptions.backlog, value: 1024)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let limit = AvailableConnectionsChannelHandler(delegate: MaximumAvailableConnections(maximumConnections, logger: logger))
                    try channel.pipeline.syncOperations.addHandler(limit)
                    try channel.pipeline.syncOperations.addHandler(quiescing.makeServerChannelHandler(channel: channel))
                }
            }
            // A client that shuts its side still gets the answers it asked for.
            .childChannelOption(ChannelOptions.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in pipeline.configure(channel) }
            .bind(host: host, port: port)
            .get()
        await onRunning(listener.localAddress?.port ?? port)
        // Until graceful shutdown; a cancelled service stops at once as well.
        try? await gracefulShutdown()
        let stopped = listener.eventLoop.makePromise(of: Void.self)
        quiescing.initiateShutdown(promise: stopped)
        // Cancelled (past the shutdown grace): return at once; what is still open closes with
        // the process.
        try await withThrowingTaskGroup(of: Void.self) { waiting in
            waiting.addTask { try await stopped.futureResult.get() }
            waiting.addTask { try await Task.sleep(for: .seconds(365 * 24 * 3600)) }
            try await waiting.next()
            waiting.cancelAll()
        }
    }
}
