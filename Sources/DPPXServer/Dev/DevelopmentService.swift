import Foundation
import Logging
import NIOPosix
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
        let excluded = options.build.outputRoot
        // Walking SRC blocks: it runs on NIO's thread pool, not on the event loops requests use.
        let snapshot = { () async -> SourceSnapshot in
            (try? await NIOThreadPool.singleton.runIfActive { SourceSnapshot(root: options.build.sourceRoot, excluding: excluded) })
                ?? SourceSnapshot(root: options.build.sourceRoot, excluding: excluded)
        }
        var known = await snapshot()
        while !Task.isCancelled {
            do { try await Task.sleep(for: options.pollInterval) } catch { return }
            var current = await snapshot()
            guard current != known else { continue }
            // Wait until the files stop changing: an editor or a copy may still be writing.
            while true {
                do { try await Task.sleep(for: options.settleDelay) } catch { return }
                let next = await snapshot()
                if next == current { break }
                current = next
            }
            let changed = known.changes(to: current)
            known = current
            _ = try? await session.build(changed: changed)
        }
    }

    private func heartbeat() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: session.options.heartbeatInterval) } catch { return }
            session.broadcaster.heartbeat()
        }
    }
}
