import DPPXCore
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// dppx's SSIMULACRA2 (CVips's ssimulacra2.c) against PyPI's `ssimulacra2`, a separate
/// implementation: the quality search is only as good as this agreement.
@Suite("Perceptual score")
struct PerceptualScoreTests {
    /// The pixels of `path` as a build holds them (decoded, at their own size).
    static func pixels(_ path: String) throws -> VipsImage {
        let master = try MasterImage(path: path, limits: DecodeLimits(maxPixels: 100_000_000))
        return try master.decode().resized(to: master.size)
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    @Test("identical pixels score 100; blurred, noisy and re-encoded pairs score what PyPI's ssimulacra2 scores, within 0.5, from 256 px a side (under it, PyPI's stops a scale early)",
          arguments: [(300, 256), (640, 427)])
    func agreesWithIndependentImplementation(width: Int, height: Int) throws {
        let folder = ScratchFolder("dppx-score")
        let original = ScenePicture.pixels(width: width, height: height)
        try TestImages.writePixels(original, width: width, height: height, bands: 3, to: folder("original.png"))
        try TestImages.writePixels(ScenePicture.blurred(original, width: width, height: height), width: width, height: height,
                                   bands: 3, to: folder("blurred.png"))
        try TestImages.writePixels(ScenePicture.noisy(original, amplitude: 12), width: width, height: height, bands: 3,
                                   to: folder("noisy.png"))
        try TestImages.writePixels(original, width: width, height: height, bands: 3, to: folder("q40.jpg") + "[Q=40]")
        try TestImages.writePixels(original, width: width, height: height, bands: 3, to: folder("q85.jpg") + "[Q=85]")
        try TestImages.writePixels(original, width: width, height: height, bands: 3, to: folder("q50.webp") + "[Q=50]")

        let reference = try Self.pixels(folder("original.png"))
        let names = ["original.png", "blurred.png", "noisy.png", "q40.jpg", "q85.jpg", "q50.webp"]
        let ours = try names.map { try PerceptualScore.ssimulacra2(reference: reference, encoded: Self.bytes(folder($0)), file: $0) }
        let theirs = try IndependentScore.scores(names.map { (folder("original.png"), folder($0)) })
        #expect(ours[0] == 100, "identical pixels")
        for (name, (mine, independent)) in zip(names, zip(ours, theirs)) {
            #expect(abs(mine - independent) <= 0.5, "\(name) at \(width)x\(height): dppx \(mine), ssimulacra2 \(independent)")
        }
        // The scale orders what it should: a light JPEG above a heavy one, and both below identical.
        #expect(ours[4] > ours[3] && ours[4] < 100)
    }

    @Test("small images are scored on the scales libjxl's loop takes (a last scale of 4 to 7 px): dppx's score is a plain reference's",
          arguments: [(15, 15, 3), (200, 150, 6), (40, 9, 2), (13, 100, 2), (33, 70, 4), (7, 30, 0)])
    func smallImagesScoreAsLibjxl(width: Int, height: Int, scales: Int) throws {
        let folder = ScratchFolder("dppx-score-small")
        let original = ScenePicture.pixels(width: width, height: height)
        let distorted = [ScenePicture.noisy(original, amplitude: 12), ScenePicture.blurred(original, width: width, height: height)]
        try TestImages.writePixels(original, width: width, height: height, bands: 3, to: folder("original.png"))
        let reference = try Self.pixels(folder("original.png"))
        for (index, pixels) in distorted.enumerated() {
            try TestImages.writePixels(pixels, width: width, height: height, bands: 3, to: folder("\(index).png"))
            let ours = try PerceptualScore.ssimulacra2(reference: reference, distorted: Self.pixels(folder("\(index).png")), file: "\(index).png")
            let plain = ReferenceScore.score(reference: original, distorted: pixels, width: width, height: height)
            #expect(plain.scales == scales)
            #expect(abs(ours - plain.score) <= 0.05, "\(width)x\(height), \(index == 0 ? "noisy" : "blurred"): dppx \(ours), reference \(plain.score)")
        }
    }

    @Test("the plain reference scores what PyPI's ssimulacra2 scores from 256 px a side, where both take the same scales")
    func referenceAgreesWithPyPIOnLargeImages() throws {
        let folder = ScratchFolder("dppx-score-reference")
        let width = 260, height = 256
        let original = ScenePicture.pixels(width: width, height: height)
        let noisy = ScenePicture.noisy(original, amplitude: 12)
        try TestImages.writePixels(original, width: width, height: height, bands: 3, to: folder("original.png"))
        try TestImages.writePixels(noisy, width: width, height: height, bands: 3, to: folder("noisy.png"))
        let plain = ReferenceScore.score(reference: original, distorted: noisy, width: width, height: height)
        let pypi = try IndependentScore.score(reference: folder("original.png"), distorted: folder("noisy.png"))
        #expect(plain.scales == 6)
        #expect(abs(plain.score - pypi) <= 0.5, "reference \(plain.score), PyPI \(pypi)")
    }

    @Test("a WebP attempt, decoded straight by libwebp, scores what libvips's loader's pixels score, with and without alpha",
          arguments: [3, 4])
    func webpDecodedByLibwebp(bands: Int) throws {
        let folder = ScratchFolder("dppx-score-webp")
        let width = 320, height = 200
        var pixels = bands == 3 ? ScenePicture.pixels(width: width, height: height) : TestImages.photoPixels(width: width, height: height, bands: 4)
        if bands == 4 { for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = UInt8((index / 4) % width * 255 / width) } }
        try TestImages.writePixels(pixels, width: width, height: height, bands: bands, to: folder("original.png"))
        try TestImages.writePixels(pixels, width: width, height: height, bands: bands, to: folder("q60.webp") + "[Q=60]")
        // libvips's own loader's pixels, kept losslessly.
        let loaded = try DecodedFile(folder("q60.webp"))
        #expect(loaded.loader == "webpload" && loaded.bands == bands)
        try TestImages.writePixels(loaded.pixels, width: width, height: height, bands: bands, to: folder("loaded.png"))

        let reference = try Self.pixels(folder("original.png"))
        let direct = try PerceptualScore.ssimulacra2(reference: reference, encoded: Self.bytes(folder("q60.webp")), file: "q60.webp")
        let viaLibvips = try PerceptualScore.ssimulacra2(reference: reference, distorted: Self.pixels(folder("loaded.png")), file: "loaded.png")
        #expect(direct == viaLibvips && direct < 100, "libwebp straight: \(direct); libvips's loader: \(viaLibvips)")
    }

    @Test("a score on two threads, the image's halves at once, is the one-thread score to the bit",
          arguments: [(700, 1400, 3), (1283, 1031, 3), (257, 1283, 4), (100, 4000, 3), (640, 700, 3), (33, 2049, 4)])
    func twoThreadsScoreTheSame(width: Int, height: Int, bands: Int) throws {
        let folder = ScratchFolder("dppx-score-threads")
        var pixels = bands == 3 ? ScenePicture.pixels(width: width, height: height) : TestImages.photoPixels(width: width, height: height, bands: 4)
        if bands == 4 { for index in stride(from: 3, to: pixels.count, by: 4) { pixels[index] = UInt8((index / 4) % width * 255 / width) } }
        try TestImages.writePixels(pixels, width: width, height: height, bands: bands, to: folder("original.png"))
        try TestImages.writePixels(pixels, width: width, height: height, bands: bands, to: folder("attempt.webp") + "[Q=50]")
        let reference = try Self.pixels(folder("original.png"))
        let attempt = try Self.bytes(folder("attempt.webp"))
        let one = try PerceptualScore.ssimulacra2(reference: reference, encoded: attempt, threads: 1, file: "attempt.webp")
        let two = try PerceptualScore.ssimulacra2(reference: reference, encoded: attempt, threads: 2, file: "attempt.webp")
        #expect(one == two, "one thread \(one), two \(two)")
        #expect(one < 100)
    }

    @Test("a transparent image scores its colour where it shows: invisible colour changes under alpha 0 cost nothing")
    func alphaHidesInvisibleColour() throws {
        try Vips.start()
        let folder = ScratchFolder("dppx-score")
        let width = 64, height = 48
        var one = TestImages.photoPixels(width: width, height: height, bands: 4)
        for index in stride(from: 3, to: one.count, by: 4) { one[index] = (index / 4) % width < width / 2 ? 0 : 255 }
        var two = one
        // Colour changed only where alpha is 0.
        for pixel in 0..<(width * height) where two[pixel * 4 + 3] == 0 { two[pixel * 4] = 255 &- two[pixel * 4] }
        try TestImages.writePixels(one, width: width, height: height, bands: 4, to: folder("one.png"))
        try TestImages.writePixels(two, width: width, height: height, bands: 4, to: folder("two.png"))
        let score = try PerceptualScore.ssimulacra2(reference: Self.pixels(folder("one.png")), encoded: Self.bytes(folder("two.png")), file: "two.png")
        #expect(score == 100)
        // The same change where the image is opaque is seen.
        var three = one
        for pixel in 0..<(width * height) where three[pixel * 4 + 3] == 255 { three[pixel * 4] = 255 &- three[pixel * 4] }
        try TestImages.writePixels(three, width: width, height: height, bands: 4, to: folder("three.png"))
        let seen = try PerceptualScore.ssimulacra2(reference: Self.pixels(folder("one.png")), encoded: Self.bytes(folder("three.png")), file: "three.png")
        #expect(seen < 90)
    }

    @Test("a file of another size than its pixels is an error naming both sizes, not a score")
    func sizeMismatchIsAnError() throws {
        let folder = ScratchFolder("dppx-score")
        try TestImages.write(folder("a.png"), width: 40, height: 30)
        try TestImages.write(folder("b.png"), width: 30, height: 40)
        #expect {
            try PerceptualScore.ssimulacra2(reference: Self.pixels(folder("a.png")), encoded: Self.bytes(folder("b.png")), file: "b.png")
        } throws: { error in
            (error as? ImagingError)?.reason.contains("30x40") == true && (error as? ImagingError)?.reason.contains("40x30") == true
        }
    }
}
