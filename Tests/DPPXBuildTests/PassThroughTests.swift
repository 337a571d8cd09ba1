import DPPXBuild
import DPPXCore
import DPPXTestSupport
import Testing

@Suite("Work spread over the workers")
struct BuildSchedulingTests {
    @Test("any memory budget and any number of workers give the same files", arguments: [(1, 112 << 20), (2, 1), (3, 112 << 20), (4, 1 << 40)])
    func sameOutputs(jobs: Int, memoryPerJob: Int) throws {
        let reference = BuildFixture()
        let tuned = BuildFixture()
        for fixture in [reference, tuned] {
            try TestImages.write(fixture.source("a.jpg"), width: 300, height: 200)
            try TestImages.write(fixture.source("b.png"), width: 200, height: 300, bands: 4, seed: 2)
            try TestImages.write(fixture.source("deep/c.webp"), width: 240, height: 160, seed: 3)
        }
        var plan = PlanSettings(sourceDensityGiven: true)
        plan.extraFormats = [.webp]
        #expect(try Builder(options: reference.options(plan, jobs: 1)).run().succeeded)
        var options = tuned.options(plan, jobs: jobs)
        options.memoryPerJob = memoryPerJob
        let report = try Builder(options: options).run()
        #expect(report.succeeded)
        #expect(report.built == ["a.jpg", "b.png", "deep/c.webp"])
        #expect(try tuned.manifestOnDisk() == reference.manifestOnDisk())
    }
}
