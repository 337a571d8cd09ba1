import ArgumentParser
import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXMeasure
import DPPXRewrite
import Foundation

/// `dppx measure ROOT`: the site's pages measured in headless Chromium, each `<img>`'s box and
/// each background image's painted size over a ladder of viewport widths, kept in
/// `dppx-layout.json`.
struct MeasureCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "measure",
        abstract: "Measure every <img> box and CSS background of a site's pages in headless Chromium, into dppx-layout.json.",
        discussion: """
        Each page is loaded from ROOT into headless Chromium (--browser, else $DPPX_BROWSER, else chromium, chromium-browser or google-chrome on PATH), with every request answered from ROOT and each image of a manifest given at its own pixel size, then measured at viewport widths from 320 to 2560 CSS px, every 40 px and bisected to 1 px at each breakpoint. The layout file records, per page and <img> occurrence (named by its byte offset in the page), the box at each width, and per CSS background layer the painted size. A page is measured again only when a file it loaded, an image size or the ladder changes; a second run with nothing changed measures nothing and writes nothing.

        A page whose scripts throw, whose load event never comes (it is measured once quiet) or whose stylesheets are all of other origins is measured as it stands, with a warning; requests to other origins fail at once, as with no network, and URLs under [rewrite] base-url are answered from ROOT. A page that fails to load, links stylesheets of the site none of which loaded, or takes longer than --timeout is named and skipped, and recorded in the layout file: while nothing it loads changes, later runs name it again without loading it. The others are measured.

        Exit status: 0 done, 1 a page was not measured or no Chromium was found, 2 wrong usage.

        Examples:
          dppx measure site                                # every .html under site/
          dppx measure site --pages "blog/**/*.html" --manifest site/img/dppx-manifest.json
          dppx measure site --browser /usr/bin/chromium --out site/dppx-layout.json
        """
    )

    @Argument(help: ArgumentHelp("The site's root: pages, stylesheets and images are read below it.", valueName: "ROOT"))
    var root: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Pages to measure, as patterns relative to ROOT (default: \"**/*.html\").", valueName: "GLOB"))
    var pages: [String] = []

    @Option(help: ArgumentHelp("The manifest whose images are served at their own size (default: every dppx-manifest.json under ROOT).", valueName: "PATH"))
    var manifest: String?

    @OptionGroup var browser: BrowserOption

    @Option(help: ArgumentHelp("The layout file (default: dppx-layout.json beside the manifest, else in ROOT).", valueName: "FILE"))
    var out: String?

    @Option(help: ArgumentHelp("Seconds one page may take to load and be measured.", valueName: "SECONDS"))
    var timeout: Int = 60

    /// The project file names the masters' folder, which a measured page is never answered
    /// from, as `dppx serve` never serves it.
    @OptionGroup var project: ProjectOption

    func validate() throws {
        guard (try? FileStatus(path: root))?.isFolder == true else {
            throw ValidationError("ROOT '\(root)' is not a folder; name the site's folder, e.g. 'dppx measure site'")
        }
        if let manifest, (try? FileStatus(path: manifest))?.isRegularFile != true {
            throw ValidationError("--manifest '\(manifest)' is not a file; name a dppx-manifest.json")
        }
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds, e.g. --timeout 60") }
    }

    func run() async throws {
        let started = ContinuousClock.now
        let manifests = manifest.map { [$0] } ?? ManifestDiscovery.find(under: root)
        let reading = SiteManifestReader.read(manifests, root: root)
        for problem in reading.problems { Terminal.error(problem.rewriteProblem.description) }
        if !reading.problems.isEmpty { throw ExitCode(ExitStatus.failure) }
        let images = SiteImages(reading.site)
        let files = SiteRewrite.files(matching: (pages.isEmpty ? ["**/*.html"] : pages).map { root + "/" + $0 })
        let relative = files.compactMap { PathContainment.relativePath(of: $0, inside: root) }.filter { !$0.isEmpty }
        guard !relative.isEmpty else {
            Terminal.warning("no page under \(root) matches \((pages.isEmpty ? ["**/*.html"] : pages).joined(separator: ", ")); nothing to measure")
            return
        }
        let output = out ?? ((manifests.first.map { ($0 as NSString).deletingLastPathComponent } ?? root) + "/" + LayoutFile.fileName)
        let settings = try project.load()
        var options = RewriteOptions()
        options.baseURL = settings.rewriteBaseURL
        let responder = MeasuredRewrite.untouchedResponder(root: root, images: images, options: options,
                                                           pixelSizes: images.pixelSizes,
                                                           privateFolders: settings.privateFolders(source: nil))
        var measurement = SiteMeasurement(pages: relative, responder: responder, output: output)
        measurement.timeout = .seconds(timeout)

        let explicit = browser.executable
        let result = await BrowserSignals.closingOnInterrupt { () async -> Result<SiteMeasurement.Outcome, MeasureError> in
            do throws(MeasureError) {
                return .success(try await measurement.run(browser: { () throws(MeasureError) in try Browser.find(explicit: explicit) }))
            } catch {
                return .failure(error)
            }
        }
        let outcome: SiteMeasurement.Outcome
        switch result {
        case .success(let value): outcome = value
        case .failure(let error):
            if Browser.interrupted { BrowserSignals.exitInterrupted() }
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
        for warning in outcome.warnings { Terminal.warning(warning.description) }
        for failure in outcome.failures { Terminal.error(failure.description) }
        for warning in outcome.pageWarnings { Terminal.warning(warning.description) }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        Terminal.out("measured \(outcome.measured.count) page\(outcome.measured.count == 1 ? "" : "s") (\(outcome.unchanged.count) unchanged, \(outcome.failures.count) failed) at \(outcome.widths) widths in \(String(format: "%.1f", seconds)) s\(outcome.written ? "; wrote \(output)" : "")")
        if !outcome.failures.isEmpty { throw ExitCode(ExitStatus.failure) }
    }
}
