import ServiceLifecycle

/// The development loop of both `dppx build --watch` and `dppx serve --watch`, as a
/// ServiceLifecycle service: a round (a `SiteBuild`: images, stylesheet, pages) now, then one each time the
/// masters under SRC change and settle, until graceful shutdown (Ctrl-C or SIGTERM through the
/// `ServiceGroup`, or the server stopping). A round in progress when shutdown comes finishes
/// first, so no temporary file is left behind; a failed round is reported and watching goes on.
public struct DevelopmentLoop: Service {
    /// What each round does.
    public let round: SiteBuild
    /// Whether `run` starts with a round; false when the caller ran the first one itself
    /// (`dppx serve` builds before it listens).
    public var buildsFirst: Bool
    /// How often SRC is scanned for changes.
    public var pollInterval: Duration
    /// How long SRC must stay unchanged before a round starts, so a file still being copied or
    /// saved in several writes is built once, complete.
    public var settleDelay: Duration
    /// SRC as it was before the caller's own first round (when `buildsFirst` is false), so a
    /// master saved between that round and this loop starting is a change, not missed.
    public var since: SourceSnapshot?
    let observer: any DevelopmentLoopObserver

    public init(round: SiteBuild, observer: any DevelopmentLoopObserver, buildsFirst: Bool = true,
                since: SourceSnapshot? = nil,
                pollInterval: Duration = .milliseconds(500), settleDelay: Duration = .milliseconds(300)) {
        self.round = round
        self.observer = observer
        self.buildsFirst = buildsFirst
        self.since = since
        self.pollInterval = pollInterval
        self.settleDelay = settleDelay
    }

    public func run() async throws {
        let watcher = SourceWatcher(root: round.build.sourceRoot, excluding: round.build.outputRoot,
                                    pollInterval: pollInterval, settleDelay: settleDelay)
        // SRC as it was before the first round: a master saved while that round runs is a change
        // the watcher then sees, not part of the state it starts from.
        let before = if let since { since } else { await watcher.snapshot() }
        if buildsFirst { await runRound(changed: []) }
        // Cancelling the watcher ends its sleeps at once; a round it started runs on its own
        // thread and is awaited to its end.
        await cancelWhenGracefulShutdown {
            await watcher.run(since: before) { changed in await runRound(changed: changed) }
        }
    }

    private func runRound(changed: [String]) async {
        await observer.roundStarting(changed: changed)
        let observer = observer
        let outcome = await round.run { event in observer.buildEvent(event) }
        await observer.roundFinished(outcome, changed: changed)
    }
}
