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

    func decoded(_ relative: String) throws -> DecodedFile { try DecodedFile(output(relative)) }

    func manifestOnDisk() throws -> Manifest {
        try Manifest.decode(AtomicFile.read(output(Manifest.fileName)))
    }
}
