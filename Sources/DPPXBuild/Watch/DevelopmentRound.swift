import DPPXCore
import Foundation

/// One round of development work: build SRC (incrementally), then write the stylesheet and
/// rewrite the pages from the new manifest. `dppx build` runs one; `dppx build --watch` and
/// `dppx serve --watch` run one per change of SRC (`DevelopmentLoop`), so every command writes
/// the same files the same way.
public struct DevelopmentRound: Sendable {
    /// The build of SRC into OUT.
    public var build: BuildOptions
    /// The stylesheet written after the build (`--css`, `[css] file`); nil for none.
    public var stylesheet: StylesheetTarget?
    /// The pages rewritten after the build (`[rewrite] pages`), listed again each round so new
    /// pages are found; nil for none.
    public var pages: (@Sendable () -> SiteRewrite)?

    public init(build: BuildOptions, stylesheet: StylesheetTarget? = nil, pages: (@Sendable () -> SiteRewrite)? = nil) {
        self.build = build
        self.stylesheet = stylesheet
        self.pages = pages
    }

    /// What a round did.
    public struct Outcome: Sendable {
        /// The build's report, or why it could not run (then nothing else was written).
        public var build: Result<BuildReport, BuildError>
        /// Whether the stylesheet was written (false: it was already up to date), or why it
        /// could not be; nil without a stylesheet or a build.
        public var stylesheet: Result<Bool, RenderOutputError>?
        /// What the page rewrite did; nil without pages or a build.
        public var pages: SiteRewrite.Outcome?
        /// Every master, stylesheet or page that failed, with the reason (a build that could
        /// not run at all is SRC's failure).
        public var problems: [FileProblem] = []

        /// True when every master built, and the stylesheet and every page were written.
        public var succeeded: Bool { problems.isEmpty }
    }

    /// Runs the round on a Dispatch thread: building blocks its thread for the whole build, and
    /// a watcher or a server must not hold one of Swift's cooperative threads that long.
    /// `onEvent` hears of each master as it is built.
    public func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) async -> Outcome {
        await onDispatchThread { runBlocking(onEvent: onEvent) }
    }

    private func runBlocking(onEvent: @escaping @Sendable (BuildEvent) -> Void) -> Outcome {
        let report: BuildReport
        do throws(BuildError) {
            report = try Builder(options: build).run(onEvent: onEvent)
        } catch {
            return Outcome(build: .failure(error), problems: [FileProblem(file: build.sourceRoot, reason: error.description)])
        }
        var outcome = Outcome(build: .success(report), problems: report.failures)
        let site = Self.writeSiteFiles(stylesheet: stylesheet, pages: pages, manifest: report.manifest, imageRoot: build.outputRoot)
        outcome.stylesheet = site.stylesheet
        outcome.pages = site.pages
        outcome.problems += site.problems
        return outcome
    }

    /// What writing the stylesheet and the pages did.
    public struct SiteFilesOutcome: Sendable {
        /// Whether the stylesheet was written (false: already up to date), or why it could not be.
        public var stylesheet: Result<Bool, RenderOutputError>?
        /// What the page rewrite did.
        public var pages: SiteRewrite.Outcome?
        /// The stylesheet or pages that failed, with the reason.
        public var problems: [FileProblem] = []
    }

    /// What follows the images: `stylesheet` written from `manifest` (its files under
    /// `imageRoot`), then `pages` rewritten from the manifests on disk. A round does this after
    /// its build, and `dppx merge` after the shards' (whose manifests are partial, so a shard
    /// does neither): one sharded build and its merge leave what one build leaves.
    public static func writeSiteFiles(stylesheet: StylesheetTarget?, pages: (@Sendable () -> SiteRewrite)?,
                                      manifest: Manifest, imageRoot: String) -> SiteFilesOutcome {
        var outcome = SiteFilesOutcome()
        if let stylesheet {
            do throws(RenderOutputError) {
                outcome.stylesheet = .success(try stylesheet.write(manifest: manifest, imageRoot: imageRoot))
            } catch {
                outcome.stylesheet = .failure(error)
                outcome.problems.append(FileProblem(file: stylesheet.path, reason: "\(error)"))
            }
        }
        if let pages {
            let rewrite = pages().run()
            outcome.pages = rewrite
            outcome.problems += rewrite.failures
        }
        return outcome
    }
}
