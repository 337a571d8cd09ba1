import DPPXBuild
import DPPXCore
@testable import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// How `quality = "auto"` finds a quality: few steps, the lowest passing quality to within
/// two, and large WebP variants searched on a sample yet held to their target as a whole.
@Suite("Quality search")
struct QualitySearchTests {
    /// Score curves of the shapes measured on a ukui photo: JPEG at 2x (straight), WebP at 1x
    /// (flat, then a jump where fewer details are dropped, then flat again), and a steeper one.
    static let curves: [(name: String, score: @Sendable (Int) -> Double)] = [
        ("JPEG-like", { 68.5 + Double($0 - 60) * 0.51 }),
        ("WebP-like", { quality in
            let q = Double(quality)
            return switch quality {
            case ..<80: 70.15 + (q - 70) * 0.4
            case ..<85: 74.12 + (q - 80) * 0.43
            case ..<90: 76.26 + (q - 85) * 0.89
            default: 80.69 + (q - 90) * 0.36
            }
        }),
        ("steep", { 20 + 1.2 * Double($0) }),
    ]

    @Test("the lowest passing quality is found to within one step above it, in at most 5 steps, whatever the goal",
          arguments: [55.0, 62, 70, 75, 80, 85, 88])
    func findsTheLowestPassingQuality(goal: Double) throws {
        for curve in Self.curves {
            var probes = 0
            var known: [Int: Double] = [:]
            let found = try QualitySearch.lowestPassing(in: 30...100, from: 82, goal: goal, known: &known) { (quality: Int) throws(ImagingError) -> Double in
                probes += 1
                return curve.score(quality)
            }
            let lowest = (30...100).first { curve.score($0) >= goal } ?? 100
            #expect(curve.score(found) >= goal || found == 100, "\(curve.name), goal \(goal): \(found) fails")
            #expect(found >= lowest && found <= lowest + 1, "\(curve.name), goal \(goal): found \(found), lowest passing \(lowest)")
            #expect(probes <= 5, "\(curve.name), goal \(goal): \(probes) steps")
        }
    }

    @Test("a goal no quality reaches gives the top of the range; one every quality reaches, the bottom")
    func ends() throws {
        var known: [Int: Double] = [:]
        let top = try QualitySearch.lowestPassing(in: 30...100, from: 82, goal: 99, known: &known) { (quality: Int) throws(ImagingError) -> Double in
            Double(quality) * 0.9
        }
        #expect(top == 100)
        known = [:]
        let bottom = try QualitySearch.lowestPassing(in: 30...100, from: 82, goal: 10, known: &known) { (quality: Int) throws(ImagingError) -> Double in
            Double(quality)
        }
        #expect(bottom <= 31)
    }

    @Test("JPEG's scales: 4:2:0 at 30 to 100, then 4:4:4 at 30 to 100; AVIF's 4:4:4 at 20 to 100 below 2x and as JPEG's from 2x; other formats one scale of their qualities")
    func scales() {
        for density in [Density(0.5), Density(1), Density(3)] {
            let jpeg = QualitySearch.scales(for: .jpeg, density: density)
            #expect(jpeg.count == 2)
            for level in [jpeg[0].lowerBound, jpeg[0].upperBound] {
                #expect(QualitySearch.rung(level, of: .jpeg) == (level, .subsampled))
            }
            #expect(QualitySearch.rung(jpeg[1].lowerBound, of: .jpeg) == (30, .full))
            #expect(QualitySearch.rung(jpeg[1].upperBound, of: .jpeg) == (100, .full))
            #expect(!jpeg[0].overlaps(jpeg[1]))
            #expect(QualitySearch.scales(for: .webp, density: density) == [30...100])
            #expect(QualitySearch.scales(for: .png, density: density).isEmpty)
        }
        for density in [Density(1), Density(1.5), Density(1.99)] {
            let avif = QualitySearch.scales(for: .avif, density: density)
            #expect(avif.count == 1)
            #expect(QualitySearch.rung(avif[0].lowerBound, of: .avif) == (20, .full))
            #expect(QualitySearch.rung(avif[0].upperBound, of: .avif) == (100, .full))
        }
        for density in [Density(2), Density(3)] {
            let avif = QualitySearch.scales(for: .avif, density: density)
            #expect(avif.count == 2)
            #expect(QualitySearch.rung(avif[0].lowerBound, of: .avif) == (20, .subsampled))
            #expect(QualitySearch.rung(avif[0].upperBound, of: .avif) == (100, .subsampled))
            #expect(QualitySearch.rung(avif[1].lowerBound, of: .avif) == (20, .full))
        }
        #expect(QualitySearch.rung(55, of: .avif) == (55, .subsampled), "the savings' baseline: the fixed build's 4:2:0")
        #expect(QualitySearch.rung(100, of: .webp) == (100, nil))
    }

    @Test("a WebP variant over a megapixel is searched on a centre square first, a JPEG whole, and every file still reaches its target by PyPI's ssimulacra2")
    func sampledVariantsMeetTheirTargets() throws {
        let fixture = BuildFixture()
        let width = 1536, height = 1024
        try TestImages.writePixels(ScenePicture.pixels(width: width, height: height), width: width, height: height, bands: 3,
                                   to: fixture.source("wide.jpg") + "[Q=95]")
        let master = try MasterImage(path: fixture.source("wide.jpg"), limits: DecodeLimits(maxPixels: 100_000_000))
        let decoded = try master.decode().resized(to: master.size)
        #expect(try QualitySearch.sample(of: decoded, format: .jpeg, file: "wide.jpg") == nil, "JPEG is searched whole")
        let crop = try #require(try QualitySearch.sample(of: decoded, format: .webp, file: "wide.jpg"), "a 1.5-megapixel WebP variant is sampled")
        #expect(crop.width == crop.fullHeight && crop.width % 16 == 0, "WebP's sample is one square, in whole macroblocks")
        #expect(crop.width * crop.fullHeight * 4 < width * height && crop.width * crop.fullHeight * 10 > width * height)

        var options = fixture.options(PlanSettings(densities: [Density(1)], extraFormats: [.webp]))
        options.encode.jpegQuality = .auto
        options.encode.webpQuality = .auto
        let report = try Builder(options: options).run()
        #expect(report.succeeded, "\(report.failures)")
        let variants = try fixture.manifestOnDisk().images[0].variants.filter { $0.width == width }
        #expect(variants.count >= 1)
        let scratch = ScratchFolder("dppx-sampled-reference")
        try AutoQualityBuildTests.writeReference(master: fixture.source("wide.jpg"), size: PixelSize(width: width, height: height),
                                                 to: scratch("reference.png"))
        let independent = try IndependentScore.scores(variants.map { (scratch("reference.png"), fixture.output($0.path)) })
        for (variant, score) in zip(variants, independent) {
            let target = QualityTargets().target(for: variant.density)
            #expect(variant.quality != nil && variant.fixedQualityBytes == nil, "\(variant.path) records its search, and no fixed-quality size unless asked for")
            #expect(score >= target, "\(variant.path): ssimulacra2 scores it \(score), under its target \(target)")
            #expect(abs((variant.score ?? 0) - score) <= 0.5, "\(variant.path): recorded \(variant.score ?? 0), ssimulacra2 \(score)")
        }
    }
}
