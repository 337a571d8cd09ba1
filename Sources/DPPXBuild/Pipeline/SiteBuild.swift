import DPPXCore
import DPPXFiles
import DPPXRewrite
import Foundation

/// One build of the site: SRC built into OUT (incrementally, `Builder`), then the stylesheet
/// written and the pages rewritten from the new manifest. `dppx build` runs one; `dppx build
/// --watch` and `dppx serve --watch` run one per change of SRC (`DevelopmentLoop`), so every
/// command writes the same files the same way.
public struct SiteBuild: Sendable {
    /// The build of SRC into OUT.
    public var build: BuildOptions
    /// The stylesheet written after the build (`--css`, `[css] file`); nil for none.
    public var stylesheet: StylesheetTarget?
    /// The pages rewritten after the build (`[rewrite] pages`), listed again each time so new
    /// pages are found; nil for none.
    public var pages: (@Sendable () -> SiteRewrite)?
    /// Measuring the pages (`[rewrite] measure`): the Chromium to run (nil: found on PATH).
    /// Before the build, so each fluid master is built at the widths its boxes need; the
    /// rewrite after it gives each `<img>` its exact `sizes` and is checked in the browser.
    public var measuring: Measuring?

    /// How the pages are measured.
    public struct Measuring: Sendable {
        public var browser: String?
        public init(browser: String? = nil) { self.browser = browser }
    }

    public init(build: BuildOptions, stylesheet: StylesheetTarget? = nil, pages: (@Sendable () -> SiteRewrite)? = nil,
                measuring: Measuring? = nil) {
        self.build = build
        self.stylesheet = stylesheet
        self.pages = pages
        self.measuring = measuring
    }

    /// What a build of the site did.
    public struct Outcome: Sendable {
        /// The build's report, or why it could not run (then nothing else was written).
        public var build: Result<BuildReport, BuildError>
        /// Whether the stylesheet was written (false: it was already up to date), or why it
        /// could not be; nil without a stylesheet or a build.
        public var stylesheet: Result<Bool, RenderOutputError>?
        /// What the page rewrite did; nil without pages or a build.
        public var pages: SiteRewrite.Outcome?
        /// What measuring the pages did; nil when they were not measured.
        public var measuring: MeasuredRewrite.Report?
        /// Every master, stylesheet or page that failed, with the reason (a build that could
        /// not run at all is SRC's failure).
        public var problems: [FileProblem] = []

        /// True when every master built, and the stylesheet and every page were written.
        public var succeeded: Bool { problems.isEmpty }

        /// Counts what the sweep after the rewrite removed as the build's removed files, and
        /// says what it could not remove.
        mutating func retired(_ sweep: RetiredFiles.Sweep) {
            guard case .success(var report) = build else { return }
            report.removed = (report.removed + sweep.removed).sorted()
            report.warnings += sweep.kept
            build = .success(report)
        }
    }

    /// Runs the build on a Dispatch thread: building blocks its thread for the whole build, and
    /// a watcher or a server must not hold one of Swift's cooperative threads that long.
    /// `onEvent` hears of each master as it is built.
    public func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) async -> Outcome {
        guard let measuring, let pages else { return await onDispatchThread { runBlocking(onEvent: onEvent) } }
        // Measured: the pages' layout first (their images at their masters' sizes), the build at
        // the widths it asks for, then the checked rewrite.
        var measuredRewrite = MeasuredRewrite(rewrite: pages(), browser: measuring.browser)
        measuredRewrite.privateFolders = PrivateFiles.mastersFolders(source: self.build.sourceRoot, output: self.build.outputRoot)
        let rewrite = measuredRewrite
        var report = MeasuredRewrite.Report()
        let build = self.build
        let root = rewrite.rewrite.root
        let (sizes, onDisk, predicted) = await onDispatchThread { Self.imagesAsBuilt(build, root: root) }
        let layout = await rewrite.measure(pixelSizes: sizes, images: onDisk, report: &report)
        var measured = self
        if let layout {
            let marker = PageRewriter(images: predicted, options: rewrite.rewrite.options)
            let ladders = LayoutLadders.ladders(layout: layout, images: predicted, rewriter: marker)
            measured.build.plan.measuredWidths = ladders.mapValues(\.widths)
            report.ladders = LayoutLadders.Summary(Array(ladders.values))
        }
        let measuredBuild = measured
        var outcome = await onDispatchThread { measuredBuild.runBlocking(onEvent: onEvent, rewritesPages: false) }
        guard case .success(let built) = outcome.build else { return outcome }
        let held = SiteManifestReader.Held(folder: build.outputRoot, manifest: built.manifest)
        let rewritten = await rewrite.rewritePages(with: layout, report: &report, held: held)
        outcome.pages = rewritten
        outcome.problems += rewritten.failures
        outcome.measuring = report
        let options = buildOptions
        let sweep = await onDispatchThread { RetiredFiles.sweep(options: options, manifest: built.manifest, rewrite: rewrite.rewrite) }
        outcome.retired(sweep)
        return outcome
    }

    /// The build's options: with pages to rewrite, the files it no longer lists are removed
    /// only after the rewrite, once no page names them (`RetiredFiles`).
    private var buildOptions: BuildOptions {
        var options = build
        options.defersRemoval = pages != nil && build.shard == nil
        return options
    }

    private func runBlocking(onEvent: @escaping @Sendable (BuildEvent) -> Void, rewritesPages: Bool = true) -> Outcome {
        let report: BuildReport
        do throws(BuildError) {
            report = try Builder(options: buildOptions).run(onEvent: onEvent)
        } catch {
            return Outcome(build: .failure(error), problems: [FileProblem(file: build.sourceRoot, reason: error.description)])
        }
        var outcome = Outcome(build: .success(report), problems: report.failures)
        let pages = rewritesPages ? self.pages.map { make in make() } : nil
        let listed: (@Sendable () -> SiteRewrite)? = pages.map { rewrite in { @Sendable in rewrite } }
        let site = Self.writeSiteFiles(stylesheet: stylesheet, pages: listed, manifest: report.manifest, imageRoot: build.outputRoot)
        outcome.stylesheet = site.stylesheet
        outcome.pages = site.pages
        outcome.problems += site.problems
        if let pages {
            outcome.retired(RetiredFiles.sweep(options: buildOptions, manifest: report.manifest, rewrite: pages))
        }
        return outcome
    }

    /// The images of the site under `root` as this build will write them, before it does:
    /// each file's pixel size by its path below the root (the manifests on disk, and for the
    /// masters they do not list yet, the sizes `ManifestPredictor` reads from their headers),
    /// the images of the manifests on disk and, after them, as predicted, and the images as
    /// predicted.
    static func imagesAsBuilt(_ build: BuildOptions, root: String) -> (sizes: [String: PixelSize], onDisk: SiteImages, predicted: SiteImages) {
        let disk = SiteManifestReader.read(under: root).site.entries.map { (folder: $0.folder, manifest: $0.manifest) }
        let onDisk = SiteImages(manifests: disk)
        var sizes = onDisk.pixelSizes
        guard let folder = PathContainment.relativePath(of: build.outputRoot, inside: root),
              let prediction = try? ManifestPredictor.predict(options: build) else { return (sizes, onDisk, .empty) }
        let predicted = SiteImages(manifests: [(folder: folder, manifest: prediction.manifest)])
        for (path, size) in predicted.pixelSizes where sizes[path] == nil { sizes[path] = size }
        // The markup an earlier rewrite wrote is recognised (and turned off while measuring) for
        // the masters as predicted too: OUT removed, or a master its manifest does not list yet,
        // would otherwise be measured with that srcset's missing files, at its alt text's size.
        return (sizes, SiteImages(manifests: disk + [(folder: folder, manifest: prediction.manifest)]), predicted)
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
    /// `imageRoot`), then `pages` rewritten from the site's manifests, `manifest` as it is in
    /// memory and the others (other folders under the root) from disk. A site's build does this
    /// after its images, and `dppx merge` after the shards' (whose manifests are partial, so a shard
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
            let rewrite = pages().run(held: SiteManifestReader.Held(folder: imageRoot, manifest: manifest))
            outcome.pages = rewrite
            outcome.problems += rewrite.failures
        }
        return outcome
    }
}
