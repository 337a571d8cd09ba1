import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation

/// A source folder and an output folder, and a way to build one into the other.
final class BuildFixture {
    let source = ScratchFolder("dppx-src")
    let output = ScratchFolder("dppx-out")
    let cache = ScratchFolder("dppx-cache")
    /// `--cache-dir`: the incremental cache, kept out of OUT; dppx creates it.
    var cacheFolder: String { cache("build-state") }

    func options(_ plan: PlanSettings = PlanSettings(sourceDensityGiven: true), maxPixels: Int = BuildOptions.defaultMaxPixels, jobs: Int = 2) -> BuildOptions {
        BuildOptions(sourceRoot: source.path, outputRoot: output.path, plan: plan, maxPixels: maxPixels, jobs: jobs,
                     cacheDirectory: cacheFolder)
    }

    @discardableResult
    func build(_ plan: PlanSettings = PlanSettings(sourceDensityGiven: true), maxPixels: Int = BuildOptions.defaultMaxPixels) throws -> BuildReport {
        try Builder(options: options(plan, maxPixels: maxPixels)).run()
    }

    /// A build, with the warnings it told as events (what `dppx build` prints).
    func buildTellingWarnings() throws -> (report: BuildReport, told: [FileProblem]) {
        let told = Told()
        let report = try Builder(options: options()).run { event in
            if case .warning(let warning) = event { told.append(warning) }
        }
        return (report, told.warnings)
    }

    final class Told: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [FileProblem] = []
        var warnings: [FileProblem] { lock.withLock { list } }
        func append(_ warning: FileProblem) { lock.withLock { list.append(warning) } }
    }

    func decoded(_ relative: String) throws -> DecodedFile { try DecodedFile(output(relative)) }

    func manifestOnDisk() throws -> Manifest {
        try Manifest.decode(AtomicFile.read(output(Manifest.fileName)))
    }
}
