import ArgumentParser
import DPPXBuild
import DPPXCore
import Foundation

/// `dppx build SRC --out OUT`: density variants of every master in SRC, and a manifest.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write density variants (hero.jpg, hero@1.5x.jpg, hero@2x.jpg) of every image in a folder.",
        discussion: """
        A master's density is stated by its name (logo@3x.png is a 3x master), a rule in dppx.toml (its density or display width), or --source-density. Each variant is the CSS size times its density; densities above the master's are skipped. A master nothing describes keeps its own pixel size under its plain name (a page shows it as before) and gets smaller copies by width (photo-795w.jpg...) for srcset. A second run rebuilds only what changed.

        OUT may be SRC itself, for a site that keeps its images beside its pages: the variants are written beside the masters, each master keeps its name and bytes (its plain URL stays its own file), the 1x file is spelled hero@1x.jpg, and a file dppx did not write is never written over or removed.

        Settings come from dppx.toml (in this folder or a parent; --config FILE), and flags override them for one run: with a project file, 'dppx build' needs no arguments. With [rewrite] pages in it, those pages get their images' srcset after each build (see 'dppx rewrite --help'): they are measured in headless Chromium first, each fluid master is built at the widths its measured boxes need, and each <img> gets the exact sizes of its boxes (--no-measure, or no Chromium, builds and rewrites from what the pages state only).

        Exit status: 0 all built, 1 some images failed (each named on stderr), 2 wrong usage.

        Examples:
          dppx build Examples --out Public
          dppx build src/img --out public/img --densities 1,2,3 --formats webp,avif
          dppx build photos --out site --source-density 3 --quality 78 --json
          dppx build Examples --out Public --css Public/samples.css --no-box
          dppx build                                  # as dppx.toml says
          dppx build src/img --out public/img --css public/img.css --watch
          dppx build src/img --out public/img --shard 2/4   # then: dppx merge
          dppx build site/assets/img --out site/assets/img  # in place
        """
    )

    @Argument(help: ArgumentHelp("The folder of master images (searched recursively), or one image (default: [build] source in dppx.toml).", valueName: "SRC"))
    var source: String?

    /// A second folder typed without `--out`: caught to say what to type.
    @Argument(help: .hidden)
    var strayOutput: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where variants and dppx-manifest.json go; folders mirror SRC's (default: [build] out in dppx.toml).", valueName: "OUT"))
    var out: String?

    @OptionGroup var build: BuildFlags

    @OptionGroup var project: ProjectOption

    @Option(help: ArgumentHelp("Build only shard K of N (1-based) of the masters, each master's shard fixed by its path, and write a partial manifest for 'dppx merge'; auto/N takes K from JOB_COMPLETION_INDEX (0-based, Kubernetes Indexed Jobs). Shards may build into one OUT at once.", valueName: "K/N"),
            transform: { text throws in try ShardRequest(parsing: text) })
    var shard: ShardRequest?

    @Flag(name: SettingRegistry.rewriteMeasure.name(), inversion: .prefixedNo, help: SettingRegistry.rewriteMeasure.argumentHelp)
    var measure: Bool?

    @OptionGroup var browser: BrowserOption

    @Flag(help: "After building, watch SRC and rebuild what changes, until Ctrl-C (for pages another dev server serves).")
    var watch = false

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(help: "Print a JSON summary on stdout instead of progress lines.")
    var json = false

    func validate() throws {
        if let strayOutput {
            throw ValidationError("SRC is one folder; did you mean --out \(strayOutput)? e.g. dppx build \(source ?? "SRC") --out \(strayOutput)")
        }
        if shard != nil, watch {
            throw ValidationError("--watch rebuilds a whole folder as it changes; a shard is one job of a batch: drop --watch or --shard")
        }
        if shard != nil, build.css != nil {
            throw ValidationError("a shard knows only its own images; write the stylesheet after 'dppx merge': dppx css OUT -o \(build.css ?? "FILE") (or name it under [css] file in dppx.toml, and 'dppx merge' writes it)")
        }
    }

    func run() async throws {
        var settings = try project.load().overlaid(by: build.settings)
        if let measure { settings.rewriteMeasure = measure }
        settings.rewriteBrowser = browser.executable
        if let source { settings.source = source }
        if let out { settings.output = out }
        guard let source = settings.source else {
            throw ValidationError("Missing the folder of masters: dppx build SRC --out OUT (e.g. dppx build Examples --out Public), or source and out under [build] in dppx.toml")
        }
        guard let out = settings.output else {
            throw ValidationError("Missing expected argument '--out <OUT>': where the variants go, e.g. dppx build \(source) --out public/img (or out under [build] in dppx.toml)")
        }
        let slice: Shard?
        do { slice = try shard?.resolve(environment: ProcessInfo.processInfo.environment) } catch {
            throw ValidationError(error.description)
        }
        let options = build.buildOptions(settings: settings, source: source, output: out, shard: slice, project: project)
        // The stylesheet and [rewrite] pages: after each build, or after the merge for a shard,
        // whose manifest is partial.
        let site = options.shard == nil ? SiteFiles(settings: settings) : nil
        let siteBuild = SiteBuild(build: options, stylesheet: site?.stylesheet, pages: site?.pages, measuring: site?.measuring)
        let reporter = BuildReporter(siteBuild, quiet: quiet, json: json, watching: watch)
        if watch {
            try await watchSource(siteBuild, reporter: reporter)
            return
        }
        await reporter.roundStarting(changed: [])
        let outcome = await BrowserSignals.closingOnInterrupt(measuring: site?.measuring != nil) { await siteBuild.run(onEvent: reporter.buildEvent) }
        await reporter.roundFinished(outcome, changed: [])
        if case .failure(let error) = outcome.build, error.isUsageError { throw ExitCode(ExitStatus.usage) }
        if !outcome.succeeded { throw ExitCode(ExitStatus.failure) }
    }
}
