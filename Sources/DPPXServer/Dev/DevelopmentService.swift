import DPPXBuild
import Foundation
import Logging
import ServiceLifecycle

/// Dev mode's background work, as a ServiceLifecycle service beside the HTTP server: scans SRC
/// every `pollInterval`, rebuilds once changes have settled, and keeps live-reload connections
/// alive. On graceful shutdown it ends every live-reload stream first, so the server's own
/// shutdown (which waits for in-flight responses) is not held up by open pages.
public struct DevelopmentService: Service {
    let session: DevelopmentSession

    public init(session: DevelopmentSession) {
        self.session = session
    }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await watch() }
            group.addTask { await heartbeat() }
            try? await gracefulShutdown()
            session.broadcaster.finishAll()
            group.cancelAll()
        }
    }

    private func watch() async {
        let options = session.options
        let watcher = SourceWatcher(root: options.build.sourceRoot, excluding: options.build.outputRoot,
                                    pollInterval: options.pollInterval, settleDelay: options.settleDelay)
        await watcher.run { changed in _ = try? await session.build(changed: changed) }
    }

    private func heartbeat() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: session.options.heartbeatInterval) } catch { return }
            session.broadcaster.heartbeat()
        }
    }
}
