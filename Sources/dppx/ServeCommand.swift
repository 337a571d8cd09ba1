import ArgumentParser
import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXServer
import Foundation
import Logging
import UnixSignals

/// `dppx serve [ROOT]`: a static server that answers an image's plain URL with the variant the
/// client's device pixel ratio needs, and in development rebuilds and reloads as masters change.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder, answering each image's plain URL with the variant the screen needs.",
        discussion: """
        A request for an image's 1x URL that ROOT's dppx-manifest.json knows (/hero.jpg) gets the variant for the client's device pixel ratio: from ?dpr=, then the Sec-CH-DPR and DPR client hints (Chromium sends them once an HTML page from this server asked with Accept-CH), then a 'dpr' cookie (set by <script src="/_dppx/dpr.js"></script> for Firefox and Safari); none means 1x. With WebP/AVIF/JPEG XL built, Accept picks the format: among those accepted at the highest q-value, the smallest file of the density. Responses carry Vary and a per-variant ETag, and state the variant's density so a plain <img src> lays out at its CSS size: in EXIF inside a JPEG (and a PNG for Firefox), else with Content-DPR. Only images whose density or size was stated (an @Nx name, a rule, --source-density) are negotiated; a master that stated nothing is served as its own plain file. With [rewrite] in dppx.toml, HTML pages and stylesheets are answered as 'dppx rewrite' writes them. /_dppx/ lists every image.

        Without ROOT, dppx.toml says what to serve: [serve] root, else [rewrite] root, else [build] out, else Public. Never published: dppx.toml (and the --config file, whatever its name), the masters folder ([build] source) when it lies under ROOT (unless the build writes into it: an in-place site), the build cache (--cache-dir), the templates folder, the --access-log file, hidden files and folders, and shards' partial manifests: each answers 404.

        With --watch SRC it first builds SRC into ROOT, with the same flags as 'dppx build', then rebuilds what changes and reloads open pages; build errors are shown in the terminal and on the page. --css rewrites the stylesheet after each build exactly as 'dppx css ROOT -o FILE' would, with the same stylesheet flags.

        Exit status: 0 stopped (Ctrl-C), 1 the server could not run, 2 wrong usage (such as ROOT missing).

        Examples:
          dppx serve                       # on http://127.0.0.1:8080/
          dppx serve site --port 3000 --cache-control "public, max-age=86400"
          dppx serve Public --watch Examples --css Public/samples.css --quality 70
          dppx serve Public --host 0.0.0.0 # reachable from other machines
          dppx serve --watch               # as dppx.toml says, in development
        """
    )

    /// The folder served when neither ROOT nor the project file names one.
    static let defaultRoot = "Public"


    @Argument(help: ArgumentHelp("The folder to serve (default: [serve] root, [rewrite] root or [build] out in dppx.toml, else Public).", valueName: "ROOT"))
    var root: String?

    @Option(name: SettingRegistry.host.name(), help: SettingRegistry.host.argumentHelp)
    var host: String?

    @Option(name: SettingRegistry.port.name(short: "p"), help: SettingRegistry.port.argumentHelp)
    var port: Int?

    @Option(name: SettingRegistry.cacheControl.name(), help: SettingRegistry.cacheControl.argumentHelp)
    var cacheControl: String?

    @Option(name: SettingRegistry.idleTimeout.name(), help: SettingRegistry.idleTimeout.argumentHelp)
    var idleTimeout: Int?

    @Option(help: ArgumentHelp("Development: build SRC into ROOT, rebuild on changes and reload open pages. A bare --watch builds [build] source of dppx.toml into its [build] out.", valueName: "SRC"))
    var watch: String?

    /// A bare `--watch` (see `rewritingBareWatch`): the project file's source folder.
    @Flag(name: .customLong("watch-project-source"), help: .hidden)
    var watchProjectSource = false

    @Flag(help: "Show the inspector at /_dppx/ (every image, its variants and what this browser gets), a page of 50 images at a time. On with --watch; off otherwise, as it tells anyone what the server holds.")
    var inspector = false

    @OptionGroup var project: ProjectOption

    @OptionGroup(title: "With --watch: how SRC is built (as in dppx build)")
    var build: BuildFlags

    @Flag(name: .shortAndLong, help: "No access log; only warnings and errors.")
    var quiet = false

    @Option(help: ArgumentHelp("Write the access log to FILE (appended, reopened on SIGHUP for logrotate) instead of standard output.", valueName: "FILE"))
    var accessLog: String?

    /// What the flags say (the project file's are added in `run`).
    var settings: ProjectSettings {
        var settings = build.settings
        settings.serveRoot = root
        settings.host = host
        settings.port = port
        settings.cacheControl = cacheControl
        settings.idleTimeout = idleTimeout
        return settings
    }

    func validate() throws {
        if let problem = settings.outOfBounds { throw ValidationError(problem.message(flags: true)) }
        if let cacheControl {
            do { _ = try CachePolicy(parsing: cacheControl) } catch { throw ValidationError("--cache-control: \(error)") }
        }
        if quiet, accessLog != nil {
            throw ValidationError("--quiet turns the access log off: drop --quiet to write it to --access-log \(accessLog!)")
        }
        if let css = build.css, watch == nil && !watchProjectSource {
            throw ValidationError("--css rewrites the stylesheet after each development build: add --watch SRC, or write it once with 'dppx css \(root ?? "ROOT") -o \(css)'")
        }
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return PrintableLogHandler(wrapped: handler)
        }
        var logger = Logger(label: "dppx")
        logger.logLevel = quiet ? .warning : .info
        let problems = logger
        let accessLog: AccessLog?
        do {
            accessLog = quiet ? nil : try AccessLog(destination: self.accessLog.map { .file($0) } ?? .standardOutput,
                                                    onProblem: { problems.warning("\($0)") })
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
        defer { accessLog?.close() }
        // logrotate moves the file and sends SIGHUP: the next batch goes to a new file.
        let reopening = Task {
            guard let accessLog else { return }
            for await _ in await UnixSignalsSequence(trapping: .sighup) { accessLog.reopen() }
        }
        defer { reopening.cancel() }

        let fromFile = try project.load()
        if host == nil, let named = fromFile.host, !ListenAddress.isLoopback(named) {
            // The repository's file opens the server to the network: the user hears of it.
            Terminal.warning("\(project.path ?? ProjectFile.fileName): serve.host = \"\(named)\" makes this server reachable from other machines, as the project file says; pass --host \(named) to choose it yourself, or --host \(ListenAddress.loopback) to keep it on this machine")
        }
        let settings = fromFile.overlaid(by: settings)
        var source = watch
        if watchProjectSource {
            source = settings.source
            guard source != nil else {
                throw ValidationError("--watch needs the folder of masters: --watch SRC, or source under [build] in dppx.toml")
            }
        }
        let root = settings.servedRoot ?? Self.defaultRoot
        var options: ServerOptions
        do { options = try ServerOptions(settings: settings, root: root) } catch {
            // A flag's value was checked in `validate`: this one came from the project file.
            Terminal.error("serve.cache-control in the project file: \(error)")
            throw ExitCode(ExitStatus.usage)
        }
        // Whatever dppx reads or writes for itself is not published, wherever it lies.
        options.privateFolders = settings.privateFolders(source: source) + [build.cacheDir, settings.templates].compactMap { $0 }
        options.privateFiles = [project.path, self.accessLog].compactMap { $0 }
        options.inspector = inspector || source != nil
        if let source {
            // The build writes where 'dppx build' would ([build] out), which may be a folder
            // inside ROOT: its manifest is found there.
            let output = settings.output ?? root
            options.development = DevelopmentOptions(build: build.buildOptions(settings: settings, source: source, output: output, project: project),
                                                     stylesheet: StylesheetTarget(settings: settings))
        }
        do {
            try await ImageServer(options: options, logger: logger, accessLog: accessLog).run()
        } catch {
            Terminal.error(error.description)
            throw ExitCode(error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
        }
    }
}

extension ProjectSettings {
    /// The folder `dppx serve` publishes when given none: `[serve] root` (or ROOT, which the
    /// command line sets there), else the site `[rewrite]` works on, else where the build writes;
    /// nil when none is named.
    var servedRoot: String? { self.serveRoot ?? self.rewriteRoot ?? self.output }

    /// The folders `dppx serve` must not publish: the masters (`--watch SRC`, else `[build]
    /// source`), unless the build writes into them (an in-place site, or OUT inside SRC, where
    /// the masters' folder holds what is published).
    func privateFolders(source: String?) -> [String] {
        PrivateFiles.mastersFolders(source: source ?? self.source, output: self.output)
    }
}

extension ServeCommand {
    /// `dppx serve --watch` without SRC means "the project file's source": ArgumentParser has
    /// no option with an optional value, so a bare `--watch` (last, or before another flag)
    /// becomes the hidden flag `--watch-project-source`.
    static func rewritingBareWatch(_ arguments: [String]) -> [String] {
        guard arguments.first == configuration.commandName else { return arguments }
        var result: [String] = []
        for (index, argument) in arguments.enumerated() {
            let next = index + 1 < arguments.count ? arguments[index + 1] : nil
            if argument == "--watch" && (next == nil || next!.hasPrefix("-")) {
                result.append("--watch-project-source")
            } else {
                result.append(argument)
            }
        }
        return result
    }
}
