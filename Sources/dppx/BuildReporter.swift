import DPPXBuild
import DPPXCore
import Foundation

/// What `dppx build` prints of each round, once or under `--watch`: progress, the summary (or
/// JSON), notes, failures, the stylesheet and the rewritten pages.
final class BuildReporter: DevelopmentLoopObserver, @unchecked Sendable {
    /// What each round does: where it builds, its shard, its stylesheet.
    let round: SiteBuild
    let quiet: Bool
    let json: Bool
    /// Under `--watch`: says which masters changed, and that watching goes on after a round.
    let watching: Bool
    private let lock = NSLock()
    private var progress: BuildProgress?

    init(_ round: SiteBuild, quiet: Bool, json: Bool, watching: Bool) {
        self.round = round
        self.quiet = quiet
        self.json = json
        self.watching = watching
    }

    func roundStarting(changed: [String]) async {
        if !changed.isEmpty && !quiet {
            let list = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? " and \(changed.count - 5) more" : "")
            Terminal.out("changed: \(list); rebuilding")
        }
        let progress = BuildProgress(mode: json ? .silent : quiet ? .errorsOnly : .normal)
        lock.withLock { self.progress = progress }
    }

    func buildEvent(_ event: BuildEvent) {
        lock.withLock { progress }?.handle(event)
    }

    func roundFinished(_ outcome: SiteBuild.Outcome, changed: [String]) async {
        lock.withLock { progress }?.finish()
        report(outcome)
        if watching && changed.isEmpty && !quiet {
            Terminal.out("watching \(round.build.sourceRoot) for changes; Ctrl-C stops")
        }
    }

    private func report(_ outcome: SiteBuild.Outcome) {
        let report: BuildReport
        switch outcome.build {
        case .success(let built): report = built
        case .failure(let error):
            Terminal.error(error.description)
            return
        }
        let out = round.build.outputRoot
        let stylesheetPath = round.stylesheet?.path
        switch outcome.stylesheet {
        case .success(let written): if written, !quiet, !json, let path = stylesheetPath { Terminal.out("wrote \(path)") }
        case .failure(let error): Terminal.error("\(stylesheetPath ?? "the stylesheet"): \(error)")
        case nil: break
        }
        // What a page view costs, from the files the round left on disk, where the pages were
        // measured (their layout says how wide each image is shown).
        let measured = outcome.measuring.map { $0.noBrowser == nil } ?? false
        let pageViews = outcome.pages == nil || !measured ? nil : round.pages.flatMap { pages in
            let site = pages()
            return PageViewReport.read(root: site.root, picture: site.options.picture)
        }
        if json {
            var summary = report.summary(manifestPath: out + "/" + (round.build.shard.map(PartialManifest.fileName(for:)) ?? Manifest.fileName))
            summary.pageViews = pageViews
            Terminal.printJSON(summary)
        } else if !quiet {
            Terminal.out(report.summaryLine)
            Terminal.out(report.diskLine(out: out))
            if let shard = round.build.shard {
                Terminal.out("\(shard.spelled): wrote \(out)/\(PartialManifest.fileName(for: shard)); once every shard is built: dppx merge \(out) --out \(out)")
            }
            let defaulted = report.manifest.images.filter { $0.intent == .default && !$0.densityIndependent }
            if let example = defaulted.first {
                Terminal.out("note: \(defaulted.count) master\(defaulted.count == 1 ? "" : "s") (such as \(example.source)) state\(defaulted.count == 1 ? "s" : "") no density: kept at \(defaulted.count == 1 ? "its" : "their") own size under the plain name, with smaller copies by width for srcset; for density variants, name \(defaulted.count == 1 ? "it" : "them") @2x (or @Nx), pass --source-density, or give a [[rule]] density or width in dppx.toml")
            }
            if let note = report.notUpscaledNote { Terminal.out(note) }
            if let note = report.recompressibleNote { Terminal.out(note) }
            if let note = report.cacheFolderNote { Terminal.out(note) }
        }
        if !report.succeeded, !json {
            Terminal.error("\(report.failures.count) image\(report.failures.count == 1 ? "" : "s") failed; the rest were built")
        }
        if let measuring = outcome.measuring { RewriteCommand.report(measuring, quiet: quiet || json) }
        if let pages = outcome.pages {
            RewriteCommand.report(pages, check: false, quiet: quiet || json)
        }
        if let pageViews, !quiet, !json { Terminal.out(PageViewReport.line(pageViews)) }
    }
}
