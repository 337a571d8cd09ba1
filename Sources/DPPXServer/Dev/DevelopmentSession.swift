import DPPXBuild
import DPPXCore
import Foundation
import Logging

/// Dev mode's shared state and its one operation, "build now": runs the same incremental
/// `Builder` as `dppx build`, rewrites the stylesheet when asked, reloads the manifest, and
/// tells open pages (status, then `reload` when files changed).
public final class DevelopmentSession: Sendable {
    public let options: DevelopmentOptions
    /// Open pages' event streams.
    public let broadcaster = ReloadBroadcaster()
    let manifests: ManifestStore
    let logger: Logger
    private let status = LockedValue(BuildStatus.pending)

    public init(options: DevelopmentOptions, manifests: ManifestStore, logger: Logger) {
        self.options = options
        self.manifests = manifests
        self.logger = logger
    }

    /// The latest build's outcome.
    public var latestStatus: BuildStatus { status.current }

    /// Builds SRC into ROOT now. Throws only when the build cannot run at all and `fatal` is
    /// set (the first build: without it there is nothing to serve); otherwise every problem
    /// ends up in the returned status, the terminal and open pages.
    @discardableResult
    public func build(changed: [String] = [], fatal: Bool = false) async throws(BuildError) -> BuildStatus {
        if !changed.isEmpty {
            let list = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? " and \(changed.count - 5) more" : "")
            logger.info("changed: \(list); rebuilding")
        }
        let sequence = status.current.sequence + 1
        let outcome = await Self.runBuilder(Builder(options: options.build), logger: logger)
        var failures: [BuildFailure]
        var summary: String
        var changedFiles = false
        switch outcome {
        case .success(let report):
            failures = report.failures
            summary = report.summaryLine
            changedFiles = !report.built.isEmpty || !report.removed.isEmpty || sequence == 1
            if let failure = writeStylesheet(report.manifest) { failures.append(failure) } else if options.stylesheet != nil { changedFiles = true }
        case .failure(let error):
            if fatal { throw error }
            failures = [BuildFailure(file: options.build.sourceRoot, reason: error.description)]
            summary = "the build could not run"
        }
        manifests.reload()
        let result = BuildStatus(sequence: sequence, succeeded: failures.isEmpty, summary: summary, failures: failures)
        status.withLock { $0 = result }
        if result.succeeded {
            logger.info("\(summary)")
        } else {
            logger.error("build failed: \(summary); the server keeps serving the last good files")
        }
        broadcaster.send(event: "status", data: result.json)
        if changedFiles { broadcaster.send(event: "reload", data: "\(sequence)") }
        return result
    }

    /// Rewrites the stylesheet from `manifest`; the failure, if any.
    private func writeStylesheet(_ manifest: Manifest) -> BuildFailure? {
        guard let stylesheet = options.stylesheet else { return nil }
        do {
            if try stylesheet.write(manifest: manifest, imageRoot: options.build.outputRoot) {
                logger.info("wrote \(stylesheet.path)")
            }
            return nil
        } catch {
            logger.error("\(stylesheet.path): \(error)")
            return BuildFailure(file: stylesheet.path, reason: "\(error)")
        }
    }

    private static func runBuilder(_ builder: Builder, logger: Logger) async -> Result<BuildReport, BuildError> {
        await builder.runInBackground { event in
            switch event {
            case .started: break
            case .built(let source, let variants): logger.info("built \(source) (\(variants) files)")
            case .failed(let failure): logger.error("\(failure)")
            case .warning(let warning): logger.warning("\(warning)")
            }
        }
    }
}
