import DPPXBuild
import Foundation
import Logging
import ServiceLifecycle

/// Dev mode's background work, as a ServiceLifecycle service beside the HTTP server: the
/// development loop `dppx build --watch` runs too (`DevelopmentLoop`: rebuild once changes to
/// SRC have settled, rewrite the stylesheet), here reporting to the session, and heartbeats
/// that keep live-reload connections alive. On graceful shutdown it ends every live-reload
/// stream first, so the server's own shutdown (which waits for in-flight responses) is not
/// held up by open pages; a rebuild in progress finishes.
public struct DevelopmentService: Service {
    let session: DevelopmentSession

    public init(session: DevelopmentSession) {
        self.session = session
    }

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await session.loop.run() }
            group.addTask { await heartbeat() }
            try? await gracefulShutdown()
            session.broadcaster.finishAll()
            group.cancelAll()
        }
    }

    private func heartbeat() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: session.options.heartbeatInterval) } catch { return }
            session.broadcaster.heartbeat()
        }
    }
}
