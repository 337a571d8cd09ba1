import ArgumentParser
import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXMeasure
import DPPXRewrite
import Foundation

/// `dppx rewrite PAGES...`: the pages and stylesheets of a site get the candidates of the
/// images they already use, so a static host serves them as `dppx html` would have written them.
struct RewriteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rewrite",
        abstract: "Add srcset to the <img> of HTML pages and image-set() to CSS backgrounds, for images dppx built.",
        discussion: """
        The HTML pages are first measured in headless Chromium (--browser, else $DPPX_BROWSER, else chromium, chromium-browser or google-chrome on PATH; never a browser dppx.toml names): every <img> box at viewport widths from 320 to 2560 CSS px, kept in dppx-layout.json beside the manifest, so an unchanged page is not measured again. Every <img> whose src names the plain file of an image in a dppx-manifest.json under --root (relative to the page, from the root with /, or under --base-url) gets a srcset, and nothing else: x descriptors for density images (hero.jpg 1x, hero@2x.jpg 2x), so the box stays the 1x file's; w descriptors for fluid images with the sizes that gives each occurrence its measured box at every width (a sizes of the page's own, or a [[rule]] sizes, wins; without measuring: a width attribute, else --sizes), otherwise they are reported with why. Each page the rewrite changes is measured again as it would be written, and left as it was, with the box that moved named, if any <img> box, painted background or the page's height moved by more than 0.5 px; with --picture, an image whose computed style, its parent's or its box a <picture> wrapper changes (a .card > img rule that stops matching), or that a script of the page selects as .card > img, is written with srcset only and named with the property, and the rest of the page is written. --no-measure, or a machine without Chromium (said in one line), rewrites from what the pages state only. An <img> with a srcset of its own is left alone and reported. --placeholder color|blur also gives each such <img> its image's placeholder as an inline style, as 'dppx html --placeholder' writes it (none for SVG or transparent images); an <img> with a style of its own keeps it and is reported. Every other byte of the page stays as it was (pages are read with an HTML5 parser), and a second run changes nothing; after a rebuild, the srcset dppx wrote is brought up to date. What was left alone is told, with what to do, for the pages a run writes; a run that leaves a page as it was counts that page's in one line (--explain lists them).

        A .css file gets, after each background or background-image declaration whose single url() is a density image, a background-image: image-set(...) with its densities (AVIF and WebP first, with type()); the original line stays as the fallback, and the painted size is unchanged. Fluid images in CSS are reported.

        Pages are rewritten in place (atomically), or written under --out at their path below the root. With a project file, [rewrite] pages (patterns such as "site/**/*.html") are used when no PAGES are given, and 'dppx build' rewrites them after the images.

        Exit status: 0 done, 1 a page or manifest failed or --check found stale pages, 2 wrong usage.

        Examples:
          dppx rewrite site/index.html site/blog/*.html --root site
          dppx rewrite site/css/main.css --root site
          dppx rewrite site/*.html --root site --out dist
          dppx rewrite site/*.html --root site --placeholder blur
          dppx rewrite site/*.html --root site --check      # CI: exit 1 naming stale pages
          dppx rewrite                                      # as dppx.toml's [rewrite] says
        """
    )

    @Argument(help: ArgumentHelp("HTML pages and CSS files to rewrite (default: [rewrite] pages in dppx.toml).", valueName: "PAGES"))
    var pages: [String] = []

    @Option(name: SettingRegistry.rewriteRoot.name(), help: SettingRegistry.rewriteRoot.argumentHelp)
    var root: String?

    @Option(help: ArgumentHelp("Write the rewritten pages under DIR, at their path below the root, instead of in place.", valueName: "DIR"))
    var out: String?

    @Option(name: SettingRegistry.rewriteBaseURL.name(), help: SettingRegistry.rewriteBaseURL.argumentHelp)
    var baseURL: String?

    @Option(name: SettingRegistry.rewriteSizes.name(), help: SettingRegistry.rewriteSizes.argumentHelp)
    var sizes: String?

    @Flag(name: SettingRegistry.rewriteDimensions.name(), inversion: .prefixedNo, help: SettingRegistry.rewriteDimensions.argumentHelp)
    var dimensions: Bool?

    @Flag(name: SettingRegistry.rewritePicture.name(), inversion: .prefixedNo, help: SettingRegistry.rewritePicture.argumentHelp)
    var picture: Bool?

    @Option(name: SettingRegistry.rewritePlaceholder.name(), help: SettingRegistry.rewritePlaceholder.argumentHelp)
    var placeholder: PlaceholderStyle?

    @Flag(name: SettingRegistry.rewriteMeasure.name(), inversion: .prefixedNo, help: SettingRegistry.rewriteMeasure.argumentHelp)
    var measure: Bool?

    @OptionGroup var browser: BrowserOption

    @Flag(help: "Write nothing; exit 1 naming each page that is not what a rewrite gives. For CI.")
    var check = false

    @Option(help: ArgumentHelp("Also write a make depfile: the rewritten pages depend on the manifests read.", valueName: "FILE"))
    var depfile: String?

    @Flag(help: "List every image left alone, on unchanged pages too (by default those are counted in one line).")
    var explain = false

    @Flag(help: "Print only errors.")
    var quiet = false

    @OptionGroup var project: ProjectOption

    func validate() throws {
        if let sizes, let problem = MarkupSizes.problem(sizes, spelled: { "--sizes \"\($0)\"" }) {
            throw ValidationError("--sizes \(problem)")
        }
        if let baseURL, baseURL.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--base-url needs a URL, e.g. --base-url https://cdn.example.com/")
        }
    }

    func run() async throws {
        var settings = try project.load()
        var flags = ProjectSettings()
        flags.rewriteRoot = root
        flags.rewriteBaseURL = baseURL
        flags.rewriteSizes = sizes
        flags.rewriteDimensions = dimensions
        flags.rewritePicture = picture
        flags.rewritePlaceholder = placeholder
        flags.rewriteMeasure = measure
        flags.rewriteBrowser = browser.executable
        settings = settings.overlaid(by: flags)
        let files = pages.isEmpty ? SiteRewrite.files(matching: settings.rewritePages ?? []) : pages
        guard !files.isEmpty else {
            if pages.isEmpty && settings.rewritePages == nil {
                throw ValidationError("name the pages to rewrite, e.g. 'dppx rewrite site/index.html --root site', or list them in dppx.toml: [rewrite] pages = [\"site/**/*.html\"]")
            }
            Terminal.warning("no page matches [rewrite] pages (\((settings.rewritePages ?? []).joined(separator: ", "))); nothing to rewrite")
            return
        }
        let rewrite = SiteRewrite(root: settings.rewriteSiteRoot, pages: files, output: out, options: RewriteOptions(settings: settings))
        let outcome: SiteRewrite.Outcome
        var measuredLayout = false
        if SettingRegistry.rewriteMeasure.resolved(in: settings) {
            var measured = MeasuredRewrite(rewrite: rewrite, browser: settings.rewriteBrowser)
            measured.privateFolders = settings.privateFolders(source: nil)
            measured.timeout = .seconds(60)
            let result = await BrowserSignals.closingOnInterrupt { await measured.run(check: check) }
            Self.report(result.report, quiet: quiet)
            measuredLayout = result.report.noBrowser == nil
            outcome = result.outcome
        } else {
            outcome = rewrite.run(check: check)
        }
        let finished = Self.finish(rewrite, outcome: outcome, check: check, depfile: depfile, quiet: quiet, explain: explain)
        // What a page view costs, where the pages were measured (their layout says how wide
        // each image is shown).
        if measuredLayout, !check, !quiet, let pageViews = PageViewReport.read(root: rewrite.root, picture: rewrite.options.picture) {
            Terminal.out(PageViewReport.line(pageViews))
        }
        if !finished { throw ExitCode(ExitStatus.failure) }
    }

    /// Says what measuring did, in one line, and why a page was not measured.
    static func report(_ report: MeasuredRewrite.Report, quiet: Bool) {
        if let noBrowser = report.noBrowser {
            if !quiet { Terminal.warning("\(noBrowser); the pages are rewritten from what they state, without measuring (--no-measure says so and skips looking)") }
            return
        }
        for warning in report.warnings { Terminal.warning(warning.description) }
        // Pages that failed are the rewrite's failures too, told with them.
        if !quiet {
            for warning in report.pageWarnings { Terminal.warning(warning.description) }
        }
        guard !quiet, !(report.measured.isEmpty && report.unchanged.isEmpty) else { return }
        let pages = report.measured.count
        var line = "measured \(pages) page\(pages == 1 ? "" : "s") (\(report.unchanged.count) unchanged since the last run)"
        if report.widths > 0 { line += " at \(report.widths) viewport widths" }
        if !report.checked.isEmpty {
            line += ", checked \(report.checked.count) rewritten page\(report.checked.count == 1 ? "" : "s") (\(report.restored.count) left as \(report.restored.count == 1 ? "it was" : "they were"))"
        }
        line += " in \(String(format: "%.1f", report.seconds)) s"
        Terminal.out(line)
        if let ladders = report.ladders, !report.measured.isEmpty { Terminal.out(ladders.description) }
    }

    /// Says what `outcome` of `rewrite` did and writes the depfile; false when something failed
    /// or `check` found stale pages.
    static func finish(_ rewrite: SiteRewrite, outcome: SiteRewrite.Outcome, check: Bool, depfile: String?, quiet: Bool, explain: Bool) -> Bool {
        var failed = !report(outcome, check: check, quiet: quiet, explain: explain)
        if let depfile {
            let targets = rewrite.pages.map(rewrite.target(of:))
            let text = Depfile.text(targets: targets, prerequisites: outcome.manifests + (rewrite.output == nil ? [] : rewrite.pages))
            do {
                if check {
                    if !AtomicFile.holds(Array(text.utf8), at: depfile) {
                        Terminal.error("\(depfile) is stale; run the same 'dppx rewrite' command without --check")
                        failed = true
                    }
                } else {
                    _ = try AtomicFile.writeIfChanged(Array(text.utf8), to: depfile)
                }
            } catch {
                Terminal.error("\(depfile): \(error)")
                failed = true
            }
        }
        return !failed
    }

    /// Says what a rewrite did: what was left alone on the pages it wrote (on pages left as
    /// they were: one line with their count, unless `explain`), what failed, and the pages
    /// written (with `check`: the stale ones); `quiet` says errors only. False when something
    /// failed or was stale. `dppx build` says this of the pages it rewrites after each build,
    /// so a rebuild that changed nothing says in one line what it said in full before.
    @discardableResult
    static func report(_ outcome: SiteRewrite.Outcome, check: Bool, quiet: Bool, explain: Bool = false) -> Bool {
        if !quiet {
            for finding in outcome.findings + (explain ? outcome.standingFindings : []) { Terminal.warning(finding.description) }
            if !explain, let first = outcome.standingFindings.first {
                let count = outcome.standingFindings.count
                Terminal.warning("\(count) image\(count == 1 ? "" : "s") on unchanged pages left without candidates (such as \(first.file):\(first.line)); 'dppx rewrite --explain' lists \(count == 1 ? "it" : "them") with why and what to do")
            }
        }
        for failure in outcome.failures { Terminal.error(failure.description) }
        if check {
            for page in outcome.changed {
                Terminal.error("\(page) is stale: its images' candidates are missing or out of date; run the same 'dppx rewrite' command without --check")
            }
            return outcome.failures.isEmpty && outcome.changed.isEmpty
        }
        if !quiet {
            let exact = outcome.imagesMadeExact > 0 ? ", \(outcome.imagesMadeExact) of them with the sizes of their measured boxes" : ""
            Terminal.out("rewrote \(outcome.changed.count) page\(outcome.changed.count == 1 ? "" : "s"), \(outcome.unchanged.count) unchanged (\(outcome.imagesRewritten) image\(outcome.imagesRewritten == 1 ? "" : "s") with candidates\(exact))")
            if outcome.picturesUnchecked {
                Terminal.out("<picture> wrappers not checked: the pages were not measured, so nothing found whether a wrapper stops a selector such as `.card > img` from matching (measure them in Chromium to have each image checked)")
            }
        }
        return outcome.failures.isEmpty
    }
}

extension ProjectSettings {
    /// The site's root for `dppx rewrite`: `[rewrite] root`, else `[serve] root`, else this folder.
    var rewriteSiteRoot: String { self.rewriteRoot ?? self.serveRoot ?? "." }
}
