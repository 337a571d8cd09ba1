import DPPXBuild
import DPPXCore
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Dev mode's shared state, and what the development loop's rounds mean for the server: each
/// round (the `SiteBuild` `dppx build` and `--watch` run too: build, stylesheet) is logged,
/// reloads the manifest and tells open pages (status, then `reload` when files changed).
public final class DevelopmentSession: DevelopmentLoopObserver {
    public let options: DevelopmentOptions
    /// Open pages' event streams.
    public let broadcaster = ReloadBroadcaster()
    let manifests: ManifestStore
    let logger: Logger
    private let status = NIOLockedValueBox(BuildStatus.pending)
    /// SRC as it was before the first build, where the loop's watching starts from.
    private let sourceBeforeFirstBuild = NIOLockedValueBox<SourceSnapshot?>(nil)

    public init(options: DevelopmentOptions, manifests: ManifestStore, logger: Logger) {
        self.options = options
        self.manifests = manifests
        self.logger = logger
    }

    /// The latest build's outcome.
    public var latestStatus: BuildStatus { status.withLockedValue { $0 } }

    /// What each round does: the build, then the stylesheet.
    public var round: SiteBuild { SiteBuild(build: options.build, stylesheet: options.stylesheet) }

    /// The loop that rebuilds on changes after the first build (`build`), until graceful shutdown.
    public var loop: DevelopmentLoop {
        DevelopmentLoop(round: round, observer: self, buildsFirst: false, since: sourceBeforeFirstBuild.withLockedValue { $0 },
                        pollInterval: options.pollInterval, settleDelay: options.settleDelay)
    }

    /// The first build, before the server listens. Throws only when the build cannot run at
    /// all and `fatal` is set (without it there is nothing to serve); otherwise every problem
    /// ends up in the returned status, the terminal and open pages.
    @discardableResult
    public func build(fatal: Bool = false) async throws(BuildError) -> BuildStatus {
        let before = await SourceWatcher(root: options.build.sourceRoot, excluding: options.build.outputRoot).snapshot()
        sourceBeforeFirstBuild.withLockedValue { $0 = before }
        let outcome = await round.run { [self] event in buildEvent(event) }
        if fatal, case .failure(let error) = outcome.build { throw error }
        return finish(outcome)
    }

    public func roundStarting(changed: [String]) async {
        guard !changed.isEmpty else { return }
        let list = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? " and \(changed.count - 5) more" : "")
        logger.info("changed: \(list); rebuilding")
    }

    public func buildEvent(_ event: BuildEvent) {
        switch event {
        case .started: break
        case .built(let source, let variants): logger.info("built \(source) (\(variants) files)")
        case .failed(let failure): logger.error("\(failure)")
        case .warning(let warning): logger.warning("\(warning)")
        }
    }

    public func roundFinished(_ outcome: SiteBuild.Outcome, changed: [String]) async {
        finish(outcome)
    }

    /// Records `outcome` as the latest status, reloads the manifest and tells open pages.
    @discardableResult
    private func finish(_ outcome: SiteBuild.Outcome) -> BuildStatus {
        let sequence = status.withLockedValue { $0.sequence } + 1
        var summary = "the build could not run"
        var changedFiles = false
        if case .success(let report) = outcome.build {
            summary = report.summaryLine
            changedFiles = !report.built.isEmpty || !report.removed.isEmpty || sequence == 1
        }
        switch outcome.stylesheet {
        case .success(let written):
            if written, let stylesheet = options.stylesheet { logger.info("wrote \(stylesheet.path)") }
            changedFiles = true
        case .failure(let error):
            logger.error("\(options.stylesheet?.path ?? "the stylesheet"): \(error)")
        case nil: break
        }
        manifests.reload()
        let result = BuildStatus(sequence: sequence, succeeded: outcome.succeeded, summary: summary, failures: outcome.problems)
        status.withLockedValue { $0 = result }
        if result.succeeded {
            logger.info("\(summary)")
        } else {
            logger.error("build failed: \(summary); the server keeps serving the last good files")
        }
        broadcaster.send(event: "status", data: result.json)
        if changedFiles { broadcaster.send(event: "reload", data: "\(sequence)") }
        return result
    }
}
