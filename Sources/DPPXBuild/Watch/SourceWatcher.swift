import Foundation

/// Watches SRC for `dppx build --watch` and `dppx serve --watch`: scans it every `pollInterval`
/// and, once a change has settled (an editor or a copy may still be writing), hands the changed
/// paths to the caller, which rebuilds. One watcher, so both commands react to the same changes.
public struct SourceWatcher: Sendable {
    /// SRC: a folder or one file.
    public let root: String
    /// The output folder, skipped when it sits inside SRC.
    public let excluding: String?
    /// How often SRC is scanned for changes.
    public var pollInterval: Duration
    /// How long SRC must stay unchanged before a rebuild starts, so a file still being copied
    /// or saved in several writes is built once, complete.
    public var settleDelay: Duration

    public init(root: String, excluding: String?, pollInterval: Duration = .milliseconds(500),
                settleDelay: Duration = .milliseconds(300)) {
        self.root = root
        self.excluding = excluding
        self.pollInterval = pollInterval
        self.settleDelay = settleDelay
    }

    /// Calls `onChange` with the paths changed since the last call (the first time: since
    /// `known`, or since `run` started), one call at a time, until the task is cancelled.
    public func run(since known: SourceSnapshot? = nil, onChange: @Sendable ([String]) async -> Void) async {
        var known = if let known { known } else { await snapshot() }
        while !Task.isCancelled {
            do { try await Task.sleep(for: pollInterval) } catch { return }
            var current = await snapshot()
            guard current != known else { continue }
            while true {
                do { try await Task.sleep(for: settleDelay) } catch { return }
                let next = await snapshot()
                if next == current { break }
                current = next
            }
            let changed = known.changes(to: current)
            known = current
            await onChange(changed)
        }
    }

    /// Walking SRC blocks: it runs on a Dispatch thread, not on Swift's cooperative pool (nor
    /// on the event loops a server answers requests on).
    public func snapshot() async -> SourceSnapshot {
        let root = root, excluding = excluding
        return await onDispatchThread { SourceSnapshot(root: root, excluding: excluding) }
    }
}
