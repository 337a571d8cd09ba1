import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// `quality = "auto"`: each variant is the smallest file whose SSIMULACRA2 score against its
/// own resized pixels reaches the target of the density it is drawn at.
@Suite("Auto quality builds")
struct AutoQualityBuildTests {
    /// A photo-like master, 960x640 at 2x: variants at 1x (480x320), 1.5x and 2x.
    static func writePhoto(_ fixture: BuildFixture, name: String = "photo@2x.jpg") throws {
        try TestImages.writePixels(ScenePicture.pixels(width: 960, height: 640), width: 960, height: 640, bands: 3,
                                   to: fixture.source(name) + "[Q=95]")
    }

    static func build(_ fixture: BuildFixture, plan: PlanSettings = PlanSettings(), _ configure: (inout EncodeSettings) -> Void) throws -> BuildReport {
        var options = fixture.options(plan)
        configure(&options.encode)
        return try Builder(options: options).run()
    }

    /// Writes `ScenePicture` at `width` x `height` as the master `name` (with libvips's save
    /// `options`), and returns its pixels resized to `size` as the build resizes them.
    static func writeScene(_ fixture: BuildFixture, name: String, width: Int, height: Int, options: String,
                           pixelsAt size: PixelSize) throws -> VipsImage {
        try TestImages.writePixels(ScenePicture.pixels(width: width, height: height), width: width, height: height, bands: 3,
                                   to: fixture.source(name) + options)
        return try masterPixels(fixture.source(name), at: size)
    }

    /// The master at `path` resized to `size` the way the build resizes it: a variant's own pixels.
    static func masterPixels(_ path: String, at size: PixelSize) throws -> VipsImage {
        let master = try MasterImage(path: path, limits: DecodeLimits(maxPixels: 100_000_000))
        return try master.decode().resized(to: size)
    }

    /// Writes `variant`'s own pixels (the master resized the way the build resizes it) as a PNG.
    static func writeReference(master: String, size: PixelSize, to path: String) throws {
        let pixels = try masterPixels(master, at: size)
        let bytes = try Encoder.encode(pixels, as: .png, settings: EncodeSettings(), losslessSource: false, file: path)
        try TestImages.writeBytes(bytes, to: path)
    }

    @Test("every JPEG and WebP variant reaches its density's target by PyPI's ssimulacra2, the hidpi ones at a lower quality than 1x")
    func variantsMeetTheirTargets() throws {
        let fixture = BuildFixture()
        try Self.writePhoto(fixture)
        let report = try Self.build(fixture, plan: PlanSettings(extraFormats: [.webp])) {
            $0.jpegQuality = .auto
            $0.webpQuality = .auto
            $0.compareFixed = true
        }
        #expect(report.succeeded, "\(report.failures)")
        let variants = try fixture.manifestOnDisk().images[0].variants
        #expect(variants.filter { $0.format == .jpeg }.count == 3)
        let scratch = ScratchFolder("dppx-auto-reference")
        var pairs: [(reference: String, distorted: String)] = []
        for variant in variants {
            let reference = scratch("\(variant.width)x\(variant.height).png")
            if !FileManager.default.fileExists(atPath: reference) {
                try Self.writeReference(master: fixture.source("photo@2x.jpg"), size: variant.size, to: reference)
            }
            pairs.append((reference, fixture.output(variant.path)))
        }
        let independent = try IndependentScore.scores(pairs)
        let targets = QualityTargets()
        for (variant, score) in zip(variants, independent) {
            let target = targets.target(for: variant.density)
            let recorded = try #require(variant.score, "\(variant.path) records its score")
            #expect(variant.target == target, "\(variant.path) records the target it was searched for")
            #expect(score >= target, "\(variant.path): ssimulacra2 scores it \(score), under its target \(target)")
            #expect(abs(recorded - score) <= 0.5, "\(variant.path): recorded \(recorded), ssimulacra2 \(score)")
            let fixed = try #require(variant.fixedQualityBytes)
            // WebP's searched files may be converted sharp, 5 to 15 % larger at a quality than
            // the plain conversion the fixed default writes: only JPEG's bytes follow its quality.
            if variant.format == .jpeg, variant.quality.map({ $0 < EncodeSettings.defaultQuality(for: variant.format) ?? 0 }) == true {
                #expect(variant.bytes < fixed, "\(variant.path): \(variant.bytes) bytes at quality \(variant.quality ?? 0), \(fixed) at the default")
            }
        }
        // An extra-format file not smaller than its JPEG is left out (the 1x WebP may be): compare where both are.
        for format in [ImageFormat.jpeg, .webp] {
            guard let oneX = variants.first(where: { $0.format == format && $0.density == Density(1) })?.quality,
                  let twoX = variants.first(where: { $0.format == format && $0.density == Density(2) })?.quality else {
                #expect(format == .webp, "every JPEG variant is written")
                continue
            }
            #expect(twoX < oneX, "\(format): 2x at \(twoX), 1x at \(oneX)")
        }
        let savings = try #require(report.qualitySavings)
        #expect(savings.variants == variants.count)
        #expect(savings.bytes == variants.reduce(0) { $0 + $1.bytes })
        #expect(savings.fixedQualityBytes == variants.reduce(0) { $0 + ($1.fixedQualityBytes ?? 0) })
        #expect(report.summaryLine.contains("quality auto: \(variants.count) variants"))
    }

    @Test("a photo's auto JPEG is smaller than the same variant written at quality 82")
    func smallerThanFixed82() throws {
        let auto = BuildFixture(), fixed = BuildFixture()
        try Self.writePhoto(auto)
        try Self.writePhoto(fixed)
        _ = try Self.build(auto) {
            $0.jpegQuality = .auto
            $0.compareFixed = true
        }
        _ = try Self.build(fixed) { $0.jpegQuality = 82 }
        let autoVariants = try auto.manifestOnDisk().images[0].variants
        let fixedVariants = try fixed.manifestOnDisk().images[0].variants
        for (searched, plain) in zip(autoVariants, fixedVariants) {
            #expect(searched.path == plain.path)
            #expect(searched.bytes < plain.bytes, "\(searched.path): auto \(searched.bytes) bytes, fixed 82 \(plain.bytes)")
            #expect(searched.fixedQualityBytes == plain.bytes, "the baseline recorded is the fixed-82 file")
            #expect(plain.quality == nil && plain.score == nil, "fixed qualities record no search")
        }
    }

    @Test("a second build writes nothing; changing the target searches again, with higher qualities for a higher target")
    func incremental() throws {
        let fixture = BuildFixture()
        try Self.writePhoto(fixture)
        let first = try Self.build(fixture) { $0.jpegQuality = .auto }
        #expect(first.built == ["photo@2x.jpg"])
        let firstVariants = try fixture.manifestOnDisk().images[0].variants
        let times = fixture.output.modificationTimes()

        let second = try Self.build(fixture) { $0.jpegQuality = .auto }
        #expect(second.built.isEmpty && second.unchanged == ["photo@2x.jpg"] && second.filesWritten == 0)
        #expect(fixture.output.modificationTimes() == times)
        #expect(second.qualitySavings == first.qualitySavings, "the summary still reports the unchanged variants")

        let higher = try Self.build(fixture) {
            $0.jpegQuality = .auto
            $0.qualityTargets = QualityTargets(standard: 90, hiDPI: 85)
        }
        #expect(higher.built == ["photo@2x.jpg"])
        let higherVariants = try fixture.manifestOnDisk().images[0].variants
        for (before, after) in zip(firstVariants, higherVariants) {
            #expect((after.quality ?? 0) > (before.quality ?? 0), "\(after.path): \(before.quality ?? 0) then \(after.quality ?? 0)")
            #expect((after.score ?? 0) >= (after.density >= Density(1.5) ? 85 : 90))
            #expect(after.target == QualityTargets(standard: 90, hiDPI: 85).target(for: after.density),
                    "\(after.path) records the new target")
        }
    }

    @Test("the same master and settings give the same bytes, qualities and scores")
    func deterministic() throws {
        let one = BuildFixture(), two = BuildFixture()
        try Self.writePhoto(one)
        try Self.writePhoto(two)
        _ = try Self.build(one) { $0.jpegQuality = .auto }
        _ = try Self.build(two) { $0.jpegQuality = .auto }
        #expect(try one.manifestOnDisk() == two.manifestOnDisk())
    }

    @Test("a JPEG needing 85 or more in 4:2:0 is searched in 4:4:4 too, and the file written is within a few percent of the smallest passing one of either", arguments: [
        "grain", "scene",
    ])
    func smallestOfBothChromas(picture: String) throws {
        let fixture = BuildFixture()
        // Grainy smooth colour, where 4:2:0 pays; sharp coloured shapes, where 4:4:4 may.
        let pixels2x = picture == "grain" ? Self.grainyGradient(width: 960, height: 640) : ScenePicture.pixels(width: 960, height: 640)
        try TestImages.writePixels(pixels2x, width: 960, height: 640, bands: 3, to: fixture.source("\(picture)@2x.jpg") + "[Q=100]")
        let pixels = try Self.masterPixels(fixture.source("\(picture)@2x.jpg"), at: PixelSize(width: 480, height: 320))
        func jpeg(_ quality: Int, _ chroma: Chroma) throws -> (bytes: Int, score: Double) {
            var settings = EncodeSettings().fixing(.jpeg, at: quality)
            settings.chroma = chroma
            let bytes = try Encoder.encode(pixels, as: .jpeg, settings: settings, losslessSource: false, file: picture)
            return (bytes.count, try PerceptualScore.ssimulacra2(reference: pixels, encoded: bytes, file: picture))
        }
        // A 1x target a quarter of the way from what 4:2:0 scores at 89 to what it scores at 95.
        let at89 = try jpeg(89, .subsampled).score, at95 = try jpeg(95, .subsampled).score
        try #require(at95 - at89 >= 1, "4:2:0 scores \(at89) at 89 and \(at95) at 95: no room for a target between")
        let target = at89 + (at95 - at89) / 4
        // Every other quality of both chromas: the smallest passing file.
        var smallest = Int.max
        var lowestSubsampled = Int.max
        for chroma in [Chroma.subsampled, .full] {
            for quality in stride(from: 30, through: 100, by: 2) {
                let file = try jpeg(quality, chroma)
                guard file.score >= target + QualityTargets.margin else { continue }
                smallest = min(smallest, file.bytes)
                if chroma == .subsampled { lowestSubsampled = min(lowestSubsampled, quality) }
            }
        }
        try #require(lowestSubsampled >= QualitySearch.fullChromaFrom, "4:2:0 passes at \(lowestSubsampled): the search would not try 4:4:4")

        let report = try Self.build(fixture) {
            $0.jpegQuality = .auto
            $0.qualityTargets = QualityTargets(standard: target, hiDPI: 50)
        }
        #expect(report.succeeded, "\(report.failures)")
        let oneX = try #require(fixture.manifestOnDisk().images[0].variants.first { $0.density == Density(1) })
        let written = try #require(FileManager.default.contents(atPath: fixture.output(oneX.path)))
        #expect(oneX.chroma != nil && Self.chroma(of: Array(written)) == oneX.chroma, "the manifest names the file's chroma")
        #expect(oneX.sharpYUV == nil, "a JPEG has no WebP conversion")
        #expect((oneX.score ?? 0) >= target)
        #expect(Double(oneX.bytes) <= Double(smallest) * 1.06,
                "\(oneX.bytes) bytes (\(oneX.chroma?.rawValue ?? "") q\(oneX.quality ?? 0)); the smallest passing file has \(smallest)")
    }

    @Test("a small JPEG that only 4:4:4 brings to its target gets the lowest passing 4:4:4 quality, to within the search's step")
    func fullChromaOnly() throws {
        let fixture = BuildFixture()
        // Sharp coloured shapes: 4:2:0 blurs their colour edges, and stops short of a high target.
        let pixels = try Self.writeScene(fixture, name: "scene@2x.jpg", width: 960, height: 640, options: "[Q=100]",
                                         pixelsAt: PixelSize(width: 480, height: 320))
        func score(_ quality: Int, _ chroma: Chroma) throws -> Double {
            var settings = EncodeSettings().fixing(.jpeg, at: quality)
            settings.chroma = chroma
            let bytes = try Encoder.encode(pixels, as: .jpeg, settings: settings, losslessSource: false, file: "scene")
            return try PerceptualScore.ssimulacra2(reference: pixels, encoded: bytes, file: "scene")
        }
        // A 1x target just above anything 4:2:0 scores.
        let subsampledBest = try score(100, .subsampled)
        let target = subsampledBest + 0.5
        let full = try (30...100).map { try score($0, .full) }
        let lowest = try #require(full.firstIndex { $0 >= target + QualityTargets.margin }.map { $0 + 30 },
                                  "4:4:4 never scores \(target)")
        try #require(full[(lowest - 30)...].allSatisfy { $0 >= target + QualityTargets.margin - 1 },
                     "4:4:4's scores dip under the target above q\(lowest): no single answer to expect")

        let report = try Self.build(fixture, plan: PlanSettings(densities: [Density(1)], extraFormats: [])) {
            $0.jpegQuality = .auto
            $0.qualityTargets = QualityTargets(standard: target, hiDPI: 50)
        }
        #expect(report.succeeded, "\(report.failures)")
        let oneX = try #require(fixture.manifestOnDisk().images[0].variants.first { $0.format == .jpeg })
        #expect(oneX.chroma == .full && (oneX.score ?? 0) >= target)
        #expect((lowest...lowest + QualitySearch.step).contains(oneX.quality ?? 0),
                "4:4:4 q\(oneX.quality ?? 0); the lowest passing is q\(lowest)")
    }

    @Test("an AVIF target 4:2:0 never reaches is reached in 4:4:4: at 1x, searched so from the start; at 2x, after 4:2:0",
          arguments: [1, 2])
    func avifFullChroma(density: Int) throws {
        let fixture = BuildFixture()
        // Sharp coloured shapes: 4:2:0 blurs their colour edges, and stops short of a high target.
        let size = PixelSize(width: 480 * density, height: 320 * density)
        let pixels = try Self.writeScene(fixture, name: "scene@2x.png", width: 960, height: 640, options: "", pixelsAt: size)
        var settings = EncodeSettings().fixing(.avif, at: 100)
        settings.chroma = .subsampled
        let subsampled = try Encoder.encode(pixels, as: .avif, settings: settings, losslessSource: true, file: "scene")
        let target = try PerceptualScore.ssimulacra2(reference: pixels, encoded: subsampled, file: "scene") + 0.5
        try #require(target < 95, "4:2:0 at 100 already scores \(target - 0.5)")

        let report = try Self.build(fixture, plan: PlanSettings(densities: [Density(Double(density))], extraFormats: [.avif])) {
            $0.avifQuality = .auto
            $0.qualityTargets = QualityTargets(standard: target, hiDPI: target)
        }
        #expect(report.succeeded, "\(report.failures)")
        let variant = try #require(fixture.manifestOnDisk().images[0].variants.first { $0.format == .avif })
        #expect(variant.size == size)
        #expect(variant.chroma == .full && (variant.score ?? 0) >= target && !variant.missesTarget,
                "\(variant.path): \(variant.chroma?.rawValue ?? "") q\(variant.quality ?? 0) scores \(variant.score ?? 0) for \(target)")
        #expect(Self.avifChroma(of: try AtomicFile.read(fixture.output(variant.path))) == .full)
        #expect((variant.quality ?? 100) < 100, "a quality under the top passes")
    }

    @Test("a WebP no quality brings to its target is left out where the JPEG of its density reaches it, and the report says so")
    func underTargetWebPLeftOut() throws {
        let fixture = BuildFixture()
        try Self.writePhoto(fixture)
        // A 1x target between what WebP and JPEG score at quality 100 on the 1x pixels.
        let pixels = try Self.masterPixels(fixture.source("photo@2x.jpg"), at: PixelSize(width: 480, height: 320))
        func best(_ format: ImageFormat) throws -> Double {
            var settings = EncodeSettings().fixing(format, at: 100)
            if format == .jpeg { settings.chroma = .full }
            // WebP as the search encodes it for a target this close to what it can reach: converted sharp.
            let bytes = format == .webp
                ? try #require(try WebPSearchInput(pixels, sharp: true, file: "photo")).encode(quality: 100, settings: settings, file: "photo")
                : try Encoder.encode(pixels, as: format, settings: settings, losslessSource: false, file: "photo")
            return try PerceptualScore.ssimulacra2(reference: pixels, encoded: bytes, file: "photo")
        }
        let webp = try best(.webp), jpeg = try best(.jpeg)
        try #require(jpeg - webp >= 1, "WebP scores \(webp) at 100, JPEG \(jpeg): no target between")
        let target = (webp + jpeg) / 2

        let report = try Self.build(fixture, plan: PlanSettings(extraFormats: [.webp])) {
            $0.jpegQuality = .auto
            $0.webpQuality = .auto
            $0.qualityTargets = QualityTargets(standard: target, hiDPI: 60)
        }
        #expect(report.succeeded, "\(report.failures)")
        let variants = try fixture.manifestOnDisk().images[0].variants
        #expect(!variants.contains { $0.path == "photo.webp" } && !FileManager.default.fileExists(atPath: fixture.output("photo.webp")))
        let oneX = try #require(variants.first { $0.path == "photo.jpg" })
        #expect((oneX.score ?? 0) >= target)
        let leftOut = try #require(report.underTarget.first)
        #expect(report.underTarget.count == 1 && leftOut.path == "photo.webp" && leftOut.replaces == "photo.jpg")
        #expect(leftOut.score < target && abs(leftOut.target - target) < 1e-9)
        #expect(report.diskLine(out: "public").contains("1 extra-format file left out, under its quality target at any quality (such as photo.webp:"),
                "\(report.diskLine(out: "public"))")
        #expect(variants.contains { $0.format == .webp && $0.density == Density(2) }, "the 2x WebP reaches its target and is written")
    }

    @Test("WebP aiming near what the plain conversion can reach is searched converted sharp: a picture the plain conversion brings to no target between the two gets a WebP that reaches it, and its savings are counted against the plain fixed-quality file")
    func webpSearchedSharp() throws {
        let fixture = BuildFixture()
        // Sharp coloured shapes, whose colour edges the plain conversion's 2x2 averages blur.
        let pixels = try Self.writeScene(fixture, name: "scene.webp", width: 480, height: 320, options: "[lossless]",
                                         pixelsAt: PixelSize(width: 480, height: 320))
        let top = EncodeSettings().fixing(.webp, at: 100)
        let plain = try PerceptualScore.ssimulacra2(
            reference: pixels, encoded: Encoder.encode(pixels, as: .webp, settings: top, losslessSource: true, file: "scene"), file: "scene")
        let sharpInput = try #require(try WebPSearchInput(pixels, sharp: true, file: "scene"))
        let sharp = try PerceptualScore.ssimulacra2(reference: pixels, encoded: sharpInput.encode(quality: 100, settings: top, file: "scene"), file: "scene")
        try #require(sharp - plain >= 4, "plain scores \(plain) at q100, sharp \(sharp): no target between")
        let target = plain + 2

        let report = try Self.build(fixture, plan: PlanSettings(densities: [Density(1)], extraFormats: [])) {
            $0.webpQuality = .auto
            $0.qualityTargets = QualityTargets(standard: target, hiDPI: target)
            $0.compareFixed = true
        }
        #expect(report.succeeded, "\(report.failures)")
        #expect(report.underTarget.isEmpty)
        let variants = try fixture.manifestOnDisk().images[0].variants
        let webp = try #require(variants.first { $0.path == "scene.webp" }, "\(variants.map(\.path))")
        let scratch = ScratchFolder("dppx-auto-sharp")
        try Self.writeReference(master: fixture.source("scene.webp"), size: webp.size, to: scratch("scene.png"))
        let independent = try IndependentScore.score(reference: scratch("scene.png"), distorted: fixture.output("scene.webp"))
        #expect(independent >= target, "ssimulacra2 scores scene.webp \(independent), under its target \(target)")
        let quality = try #require(webp.quality)
        #expect(quality < 100, "a quality under 100 passes when converted sharp")
        let written = try Array(Data(contentsOf: URL(fileURLWithPath: fixture.output("scene.webp"))))
        let sharpFile = try sharpInput.encode(quality: quality, settings: EncodeSettings(), file: "scene")
        let isSharp = written == sharpFile
        #expect(isSharp, "scene.webp is the sharp conversion's file at q\(quality)")
        #expect(webp.sharpYUV == true, "the manifest says scene.webp was converted sharp")
        let fixedBytes = try Encoder.encode(pixels, as: .webp, settings: EncodeSettings(), losslessSource: true, file: "scene").count
        #expect(webp.fixedQualityBytes == fixedBytes, "the savings are against the file a fixed build writes")
    }

    @Test("a variant with room above its target is searched with the plain conversion: its file is the fixed encoder's at its quality")
    func webpSearchedPlain() throws {
        let fixture = BuildFixture()
        try Self.writePhoto(fixture)
        let pixels = try Self.masterPixels(fixture.source("photo@2x.jpg"), at: PixelSize(width: 960, height: 640))
        let goal = QualityTargets().hiDPI + QualityTargets.margin
        try #require(try !#require(try WebPSearchInput.inputs(for: pixels, sample: nil, goal: goal, file: "photo")).whole.sharp,
                     "the photo's 2x pixels leave the plain conversion room")
        let report = try Self.build(fixture, plan: PlanSettings(densities: [Density(2)], extraFormats: [.webp])) {
            $0.webpQuality = .auto
            $0.compareFixed = true
        }
        #expect(report.succeeded, "\(report.failures)")
        let webp = try #require(try fixture.manifestOnDisk().images[0].variants.first { $0.path == "photo@2x.webp" })
        let quality = try #require(webp.quality)
        let plainFile = try Encoder.encode(pixels, as: .webp, settings: EncodeSettings().fixing(.webp, at: quality), losslessSource: false, file: "photo")
        let written = try Array(Data(contentsOf: URL(fileURLWithPath: fixture.output("photo@2x.webp"))))
        let isPlain = written == plainFile
        #expect(isPlain, "photo@2x.webp is the plain conversion's file at q\(quality)")
        #expect(webp.sharpYUV == false, "the manifest says photo@2x.webp was converted plainly")
        let fixedBytes = try Encoder.encode(pixels, as: .webp, settings: EncodeSettings(), losslessSource: false, file: "photo").count
        #expect(webp.fixedQualityBytes == fixedBytes, "the savings are against the file a fixed build writes")
        #expect((webp.score ?? 0) >= QualityTargets().hiDPI)
    }

    @Test("a translucent PNG's auto WebP keeps its alpha exactly and reaches its target")
    func translucentWebP() throws {
        let fixture = BuildFixture()
        // Opaque at the top, translucent below, a radial fade over the middle: strips of the
        // sharp conversion with and without alpha.
        var pixels = TestImages.photoPixels(width: 480, height: 640, bands: 4)
        for y in 0..<300 {
            for x in 0..<480 { pixels[(y * 480 + x) * 4 + 3] = 255 }
        }
        try TestImages.writePixels(pixels, width: 480, height: 640, bands: 4, to: fixture.source("glass.png"))
        let report = try Self.build(fixture, plan: PlanSettings(densities: [Density(1)], extraFormats: [.webp])) {
            $0.webpQuality = .auto
        }
        #expect(report.succeeded, "\(report.failures)")
        let variants = try fixture.manifestOnDisk().images[0].variants
        let webp = try #require(variants.first { $0.path == "glass.webp" }, "\(variants.map(\.path))")
        #expect((webp.score ?? 0) >= QualityTargets().standard, "glass.webp scores \(webp.score ?? 0)")
        let decoded = try DecodedFile(fixture.output("glass.webp"))
        try #require(decoded.bands == 4 && decoded.width == 480 && decoded.height == 640)
        let alphaKept = stride(from: 3, to: pixels.count, by: 4).allSatisfy { decoded.pixels[$0] == pixels[$0] }
        #expect(alphaKept, "the WebP's alpha is the master's, value for value")
    }

    /// A photo's makings where 4:2:0 pays: smooth colour, fine detail in brightness, and the
    /// faint per-channel grain of a camera, which 4:4:4 spends bytes on and the eye barely sees.
    static func grainyGradient(width: Int, height: Int) -> [UInt8] {
        var state: UInt64 = 7
        func grain() -> Double {
            // The sum of four uniforms: a bell curve, deterministic across platforms.
            var sum = 0.0
            for _ in 0..<4 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                sum += Double(state >> 11) / Double(1 << 53)
            }
            return (sum - 2) * 17
        }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                let detail = 25 * sin(fx * 0.35) * sin(fy * 0.25) + 18 * sin((fx + fy) * 0.115)
                let base = [60 + 120 * fx / Double(width), 70 + 100 * fy / Double(height), 150 - 80 * fx / Double(width)]
                for channel in base { pixels.append(UInt8(max(0, min(255, channel + detail + grain())))) }
            }
        }
        return pixels
    }

    /// The chroma of an AVIF's bytes, from its AV1 configuration box (`av1C`): the third byte
    /// after its marker holds the subsampling flags, both set in 4:2:0 and clear in 4:4:4.
    static func avifChroma(of avif: [UInt8]) -> Chroma? {
        let name = Array("av1C".utf8)
        guard let at = avif.indices.first(where: { avif[$0...].starts(with: name) }), at + 7 < avif.count else { return nil }
        return switch (avif[at + 6] >> 2) & 0b11 {
        case 0b11: .subsampled
        case 0b00: .full
        default: nil
        }
    }

    /// The chroma of a JPEG's bytes, from its frame header: the first component's sampling
    /// factors are 2x2 in 4:2:0 and 1x1 in 4:4:4.
    static func chroma(of jpeg: [UInt8]) -> Chroma? {
        var index = 2
        while index + 12 < jpeg.count, jpeg[index] == 0xFF {
            let marker = jpeg[index + 1]
            let length = Int(jpeg[index + 2]) << 8 | Int(jpeg[index + 3])
            if marker == 0xC0 || marker == 0xC2 {
                return switch jpeg[index + 11] {
                case 0x22: .subsampled
                case 0x11: .full
                default: nil
                }
            }
            index += 2 + length
        }
        return nil
    }

    @Test("AVIF: each variant reaches its density's target, in 4:4:4 below 2x and 4:2:0 at 2x, the 2x one at a lower quality than 1x; the savings count against the fixed build's 4:2:0 file")
    func avif() throws {
        let fixture = BuildFixture()
        try TestImages.writePixels(ScenePicture.pixels(width: 360, height: 240), width: 360, height: 240, bands: 3,
                                   to: fixture.source("small@2x.png"))
        let report = try Self.build(fixture, plan: PlanSettings(extraFormats: [.avif])) {
            $0.avifQuality = .auto
            $0.compareFixed = true
        }
        #expect(report.succeeded, "\(report.failures)")
        let variants = try fixture.manifestOnDisk().images[0].variants
        let avif = variants.filter { $0.format == .avif }
        #expect(avif.map(\.density) == [Density(1), Density(1.5), Density(2)])
        for variant in avif {
            let target = QualityTargets().target(for: variant.density)
            #expect((variant.score ?? 0) >= target, "\(variant.path) scores \(variant.score ?? 0), target \(target)")
            let written = try AtomicFile.read(fixture.output(variant.path))
            let chroma: Chroma = variant.density < Density(2) ? .full : .subsampled
            #expect(variant.chroma == chroma && Self.avifChroma(of: written) == chroma,
                    "\(variant.path) is \(chroma.rawValue), and the manifest says so")
            // The default quality's file, as a fixed build writes it: libvips's choice at 55, 4:2:0.
            let pixels = try Self.masterPixels(fixture.source("small@2x.png"), at: variant.size)
            let fixed = try Encoder.encode(pixels, as: .avif, settings: EncodeSettings(), losslessSource: true, file: "small")
            #expect(Self.avifChroma(of: fixed) == .subsampled)
            #expect(variant.fixedQualityBytes == fixed.count, "\(variant.path): the baseline is the fixed build's file")
        }
        #expect(variants.filter { $0.format == .png }.allSatisfy { $0.quality == nil }, "PNG stays lossless")
        let oneX = try #require(avif.first { $0.density == Density(1) }?.quality)
        let twoX = try #require(avif.first { $0.density == Density(2) }?.quality)
        #expect(twoX < oneX)
    }

    @Test("PNG stays lossless, and a fluid image's widths all aim at the 1x target")
    func pngAndFluid() throws {
        let fixture = BuildFixture()
        try TestImages.writePixels(ScenePicture.pixels(width: 900, height: 600), width: 900, height: 600, bands: 3,
                                   to: fixture.source("plan.png"))
        try Self.writePhoto(fixture, name: "wide.jpg")
        let rule = ImageRule(match: [PathGlob("wide.jpg")], widths: try WidthRequest(parsing: "480,960"))
        let report = try Self.build(fixture, plan: PlanSettings(rules: [rule])) {
            $0.jpegQuality = .auto
            $0.webpQuality = .auto
        }
        #expect(report.succeeded, "\(report.failures)")
        let images = try fixture.manifestOnDisk().images
        let png = try #require(images.first { $0.source == "plan.png" })
        #expect(png.variants.allSatisfy { $0.quality == nil && $0.score == nil })
        let fluid = try #require(images.first { $0.source == "wide.jpg" })
        #expect(fluid.isFluid && fluid.variants.count == 2)
        for variant in fluid.variants {
            #expect((variant.score ?? 0) >= QualityTargets.defaultStandard, "\(variant.path) scores \(variant.score ?? 0)")
        }
    }
}
