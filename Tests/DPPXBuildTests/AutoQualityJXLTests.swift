import DPPXBuild
import DPPXCore
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// `jxl-quality = "auto"`: a JPEG XL encoded from pixels is searched like WebP and AVIF; a JPEG
/// variant's JXL stays the lossless recompression of its bytes.
@Suite("Auto quality builds of JPEG XL")
struct AutoQualityJXLTests {
    @Test("a PNG master's JXL variants reach their targets by PyPI's ssimulacra2 (decoded by djxl), 2x at a lower quality than 1x; a JPEG master's JXL is still its JPEG's recompression")
    func searched() throws {
        let fixture = BuildFixture()
        try TestImages.writePixels(ScenePicture.pixels(width: 960, height: 640), width: 960, height: 640, bands: 3,
                                   to: fixture.source("scene@2x.png"))
        try AutoQualityBuildTests.writePhoto(fixture, name: "photo@2x.jpg")
        let report = try AutoQualityBuildTests.build(fixture, plan: PlanSettings(extraFormats: [.jxl])) { $0.jxlQuality = .auto }
        #expect(report.succeeded, "\(report.failures)")
        let manifest = try fixture.manifestOnDisk()
        let scene = try #require(manifest.images.first { $0.source == "scene@2x.png" })
        let jxl = scene.variants.filter { $0.format == .jxl }
        #expect(jxl.count == 3, "a lossy JXL of a PNG master is smaller than the PNG at every density")

        let scratch = ScratchFolder("dppx-auto-jxl")
        var pairs: [(reference: String, distorted: String)] = []
        for variant in jxl {
            let decoded = scratch("\(variant.width).png")
            let result = try ChildProcess.run("/usr/bin/djxl", [fixture.output(variant.path), decoded])
            #expect(result.status == 0, "djxl \(variant.path) (scripts/install-deps --test installs libjxl-tools): \(result)")
            // The variant's own pixels: the PNG variant of its density, written losslessly.
            pairs.append((fixture.output(variant.path.replacingOccurrences(of: ".jxl", with: ".png")), decoded))
        }
        let targets = QualityTargets()
        for (variant, score) in zip(jxl, try IndependentScore.scores(pairs)) {
            let target = targets.target(for: variant.density)
            let recorded = try #require(variant.score, "\(variant.path) records its score")
            #expect(score >= target, "\(variant.path): ssimulacra2 scores it \(score), under its target \(target)")
            #expect(abs(recorded - score) <= 0.5, "\(variant.path): recorded \(recorded), ssimulacra2 \(score)")
            #expect(variant.fixedQualityBytes == nil, "\(variant.path): no size at jxl-quality 90 without compare-fixed")
        }
        let oneX = try #require(jxl.first { $0.density == Density(1) }?.quality)
        let twoX = try #require(jxl.first { $0.density == Density(2) }?.quality)
        #expect(twoX < oneX, "2x at \(twoX), 1x at \(oneX)")

        // The JPEG master's JXL gives its JPEG back (nothing to search) and records no quality.
        let photo = try #require(manifest.images.first { $0.source == "photo@2x.jpg" })
        let photoJXL = photo.variants.filter { $0.format == .jxl }
        #expect(!photoJXL.isEmpty && photoJXL.allSatisfy { $0.quality == nil && $0.score == nil })
        for variant in photoJXL {
            let jpeg = scratch("back-\(variant.width).jpg")
            try JPEGXLVariantTests.djxl(fixture.output(variant.path), jpeg)
            #expect(try Data(contentsOf: URL(fileURLWithPath: jpeg))
                    == Data(contentsOf: URL(fileURLWithPath: fixture.output(variant.path.replacingOccurrences(of: ".jxl", with: ".jpg")))))
        }

        // Unchanged, nothing is searched or written again; a new target searches again.
        let again = try AutoQualityBuildTests.build(fixture, plan: PlanSettings(extraFormats: [.jxl])) { $0.jxlQuality = .auto }
        #expect(again.filesWritten == 0, "\(again)")
        let lower = try AutoQualityBuildTests.build(fixture, plan: PlanSettings(extraFormats: [.jxl])) {
            $0.jxlQuality = .auto
            $0.qualityTargets = QualityTargets(standard: 70, hiDPI: nil, base: QualityTargets())
        }
        #expect(lower.filesWritten > 0)
        let rebuilt = try #require(try fixture.manifestOnDisk().images.first { $0.source == "scene@2x.png" })
        let lowerOneX = try #require(rebuilt.variants.first { $0.format == .jxl && $0.density == Density(1) }?.quality)
        #expect(lowerOneX < oneX, "a lower target, a lower quality: \(lowerOneX) against \(oneX)")
    }
}
