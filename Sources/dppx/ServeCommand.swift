import ArgumentParser
import DPPXBuild
import DPPXServer
import Foundation
import Logging

/// `dppx serve [ROOT]`: a static server that answers an image's plain URL with the variant the
/// client's device pixel ratio needs, and in development rebuilds and reloads as masters change.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a folder, answering each image's plain URL with the variant the screen needs.",
        discussion: """
        A request for an image's 1x URL that ROOT's dppx-manifest.json knows (/hero.jpg) gets the
        variant for the client's device pixel ratio: from ?dpr=, then the Sec-CH-DPR and DPR
        client hints (Chromium sends them once an HTML page from this server asked with
        Accept-CH), then a 'dpr' cookie (set by <script src="/_dppx/dpr.js"></script> for
        Firefox and Safari); none means 1x. With WebP/AVIF built, Accept picks the format.
        Responses carry Vary, Content-DPR and a per-variant ETag. /_dppx/ lists every image.

        With --watch SRC it first builds SRC into ROOT, then rebuilds what changes and reloads
        open pages; build errors are shown in the terminal and on the page.

        Examples:
          dppx serve                                  # Public/ on http://127.0.0.1:8080/
          dppx serve site --port 3000 --cache-control "public, max-age=86400"
          dppx serve Public --watch Examples --css Public/samples.css
          dppx serve Public --host 0.0.0.0           # reachable from other machines
        """
    )

    @Argument(help: ArgumentHelp("The folder to serve.", valueName: "ROOT"))
    var root: String = "Public"

    @Option(help: ArgumentHelp("The address to listen on: 127.0.0.1 (this machine) or 0.0.0.0 (every interface).", valueName: "HOST"))
    var host: String = ServerOptions.defaultHost

    @Option(name: .shortAndLong, help: ArgumentHelp("The TCP port; 0 picks a free one.", valueName: "PORT"))
    var port: Int = ServerOptions.defaultPort

    @Option(help: ArgumentHelp("Cache-Control for files, e.g. \"public, max-age=3600\" (default: no-cache, i.e. revalidate with ETags).", valueName: "VALUE"))
    var cacheControl: String?

    @Option(help: ArgumentHelp("Close connections that send no complete request for this many seconds.", valueName: "SECONDS"))
    var idleTimeout: Int = 30

    @Option(help: ArgumentHelp("Development: build SRC into ROOT, rebuild on changes and reload open pages.", valueName: "SRC"))
    var watch: String?

    @Option(help: ArgumentHelp("Development: rewrite this stylesheet after every build (with --watch).", valueName: "FILE"))
    var css: String?

    @Option(help: ArgumentHelp("A folder with your copies of dppx's templates (stylesheet, inspector page).", valueName: "DIR"))
    var templates: String?

    @OptionGroup(title: "With --watch: how SRC is built (as in dppx build)")
    var variants: VariantOptions

    @Flag(name: .shortAndLong, help: "No access log; only warnings and errors.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535, e.g. --port 8080; got \(port)") }
        guard idleTimeout > 0 else { throw ValidationError("--idle-timeout must be a positive number of seconds, e.g. --idle-timeout 30; got \(idleTimeout)") }
        if let cacheControl {
            do { _ = try CachePolicy(parsing: cacheControl) } catch { throw ValidationError("--cache-control: \(error)") }
        }
        if css != nil && watch == nil {
            throw ValidationError("--css rewrites the stylesheet after each development build: add --watch SRC, or write it once with 'dppx css \(root) -o \(css ?? "FILE")'")
        }
        if watch != nil { try variants.validate() }
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = label == "dppx.access" ? StreamLogHandler.standardOutput(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        var logger = Logger(label: "dppx")
        logger.logLevel = quiet ? .warning : .info
        let accessLogger = quiet ? nil : Logger(label: "dppx.access")

        var options = ServerOptions(root: root, host: host, port: port, idleTimeout: .seconds(idleTimeout), templatesFolder: templates)
        if let cacheControl { options.cachePolicy = try CachePolicy(parsing: cacheControl) }
        if let watch {
            let build = BuildOptions(sourceRoot: watch, outputRoot: root, plan: try variants.planSettings())
            options.development = DevelopmentOptions(build: build, stylesheet: css)
        }
        do {
            try await ImageServer(options: options, logger: logger, accessLogger: accessLogger).run()
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
    }
}
