@testable import DPPXBuild
import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

@Suite("Building fluid images")
struct FluidBuildTests {
    static let rules = [ImageRule(match: [PathGlob("cards/**")], widths: .explicit([300, 600, 1200]))]

    @Test("a rule's widths write -Nw files in every format at those widths, the widest under the plain name")
    func ruleWidths() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("cards/a.jpg"), width: 900, height: 600)
        try TestImages.write(fixture.source("hero.jpg"), width: 400, height: 200)
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp], rules: Self.rules))
        #expect(report.failures.isEmpty)
        #expect(fixture.output.files() == [
            "cards/a-300w.jpg", "cards/a-300w.webp", "cards/a-600w.jpg", "cards/a-600w.webp", "cards/a.jpg", "cards/a.webp",
            "dppx-manifest.json", "hero.jpg", "hero.webp", "hero@1.5x.jpg", "hero@1.5x.webp", "hero@2x.jpg", "hero@2x.webp",
        ])
        #expect(try fixture.decoded("cards/a-300w.webp").width == 300)
        #expect(try fixture.decoded("cards/a-600w.jpg").height == 400)
        #expect(try fixture.decoded("cards/a.jpg").width == 900, "the master's own width is the widest file")
        let manifest = try fixture.manifestOnDisk()
        let card = try #require(manifest.images.first { $0.source == "cards/a.jpg" })
        #expect(card.isFluid && card.widths == [300, 600, 900])
        #expect(card.variants(in: .jpeg).map(\.width) == [300, 600, 900])
        #expect(card.variants.allSatisfy { $0.bytes > 0 && !$0.hash.isEmpty })
        #expect(!(manifest.images.first { $0.source == "hero.jpg" }?.isFluid ?? true))
        #expect(report.warnings.contains { $0.file == "cards/a.jpg" && $0.reason.contains("skipped 1200w") })
    }

    @Test("a master that states no density keeps its pixel size under its plain name, with the automatic ladder; an OUT built when such masters were taken as 2x loses their @Nx files")
    func unstatedMaster() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("post.jpg"), width: 778, height: 519)
        try TestImages.write(fixture.source("logo@2x.png"), width: 200, height: 100, bands: 4)
        // What earlier versions wrote for an unnamed master: 2x, so a half-size plain file.
        try fixture.build(PlanSettings(sourceDensityGiven: true))
        #expect(try fixture.decoded("post.jpg").width == 389)
        let report = try fixture.build(PlanSettings())
        #expect(report.failures.isEmpty)
        #expect(fixture.output.files() == ["dppx-manifest.json", "logo.png", "logo@1.5x.png", "logo@2x.png",
                                           "post-322w.jpg", "post-432w.jpg", "post-580w.jpg", "post.jpg"])
        let plain = try fixture.decoded("post.jpg")
        #expect(plain.width == 778 && plain.height == 519, "the plain file is the master's size")
        #expect(try fixture.decoded("post-580w.jpg").height == 387)
        let post = try #require(try fixture.manifestOnDisk().images.first { $0.source == "post.jpg" })
        #expect(post.isFluid && post.intent == .default && !post.sizeIsGiven && post.cssSize == PixelSize(width: 778, height: 519))
    }

    @Test("--widths auto makes every master fluid on the automatic ladder")
    func auto() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("wide.png"), width: 1000, height: 250, bands: 4)
        try fixture.build(PlanSettings(sourceDensityGiven: true, widths: .auto))
        #expect(fixture.output.files() == ["dppx-manifest.json", "wide-414w.png", "wide-555w.png", "wide-745w.png", "wide.png"])
        #expect(try fixture.decoded("wide-414w.png").height == 104)
    }

    @Test("fluid builds are incremental; changing the widths removes the files no longer wanted")
    func incremental() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("cards/a.jpg"), width: 900, height: 600)
        try fixture.build(PlanSettings(sourceDensityGiven: true, rules: Self.rules))
        let before = fixture.output.modificationTimes()
        Thread.sleep(forTimeInterval: 0.02)
        let again = try fixture.build(PlanSettings(sourceDensityGiven: true, rules: Self.rules))
        #expect(again.filesWritten == 0 && again.unchanged == ["cards/a.jpg"])
        #expect(fixture.output.modificationTimes() == before)

        let fewer = [ImageRule(match: [PathGlob("cards/**")], widths: .explicit([600]))]
        let changed = try fixture.build(PlanSettings(sourceDensityGiven: true, rules: fewer))
        #expect(changed.removed == ["cards/a-300w.jpg"])
        #expect(fixture.output.files() == ["cards/a-600w.jpg", "cards/a.jpg", "dppx-manifest.json"])

        let dense = try fixture.build(PlanSettings(sourceDensityGiven: true))
        #expect(dense.removed == ["cards/a-600w.jpg"])
        #expect(fixture.output.files() == ["cards/a.jpg", "cards/a@1.5x.jpg", "cards/a@2x.jpg", "dppx-manifest.json"])
    }

    @Test("a changed sizes rule does not rebuild: it is markup, not pixels")
    func sizesDoNotRebuild() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("cards/a.jpg"), width: 900, height: 600)
        try fixture.build(PlanSettings(sourceDensityGiven: true, rules: Self.rules))
        var withSizes = Self.rules
        withSizes[0].sizes = "50vw"
        #expect(try fixture.build(PlanSettings(sourceDensityGiven: true, rules: withSizes)).filesWritten == 0)
    }
}

@Suite("Fluid names beside other masters")
struct FluidCollisionTests {
    @Test("a master named like one of a fluid master's widths fails, naming the other; beside a density master it is fine")
    func collision() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("card.jpg"), width: 900, height: 600)
        try TestImages.write(fixture.source("card-480w.jpg"), width: 480, height: 320)
        let fluid = try fixture.build(PlanSettings(sourceDensityGiven: true, rules: [ImageRule(match: [PathGlob("card.jpg")], widths: .explicit([480]))]))
        #expect(Set(fluid.failures.map(\.file)) == ["card.jpg", "card-480w.jpg"])
        #expect(fluid.failures.allSatisfy { $0.reason.contains("would write the same files") && $0.reason.contains("(such as card-480w.jpg)") },
                "the file both would write is named: \(fluid.failures)")
        let dense = try fixture.build(PlanSettings(sourceDensityGiven: true))
        #expect(dense.failures.isEmpty)
    }
}
