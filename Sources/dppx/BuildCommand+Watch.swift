import DPPXBuild
import Logging
import ServiceLifecycle

extension BuildCommand {
    /// `--watch`: the development loop `dppx serve --watch` runs too (a first round, then one
    /// per change of SRC), under a ServiceLifecycle `ServiceGroup` whose graceful shutdown
    /// Ctrl-C and SIGTERM trigger. A round in progress finishes, so no temporary file is left
    /// behind, and dppx exits 0; a failed round is reported and watching goes on.
    func watchSource(_ round: SiteBuild, reporter: BuildReporter) async throws {
        let silent = Logger(label: "dppx.services") { _ in SwiftLogNoOpLogHandler() }
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [SecondSignalExit(), DevelopmentLoop(round: round, observer: reporter)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: silent))
        try await group.run()
        if !quiet { Terminal.out("stopped watching \(round.build.sourceRoot)") }
    }
}
