import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("Placeholders in the build")
struct PlaceholderBuildTests {
    func placeholder(_ fixture: BuildFixture, _ source: String) throws -> ImagePlaceholder {
        let image = try #require(try fixture.manifestOnDisk().images.first { $0.source == source })
        return try #require(image.placeholder)
    }

    /// The preview data URI's image, decoded by libvips.
    func preview(_ placeholder: ImagePlaceholder, in folder: ScratchFolder, name: String) throws -> DecodedFile {
        let uri = try #require(placeholder.preview)
        let prefix = "data:image/webp;base64,"
        #expect(uri.hasPrefix(prefix))
        let bytes = try #require(Data(base64Encoded: String(uri.dropFirst(prefix.count))))
        #expect(bytes.count < 1024, "the data URI's image is \(bytes.count) bytes")
        try TestImages.writeBytes(Array(bytes), to: folder(name + ".webp"))
        return try DecodedFile(folder(name + ".webp"))
    }

    @Test("every raster master gets a colour, a ThumbHash and a preview of its aspect ratio")
    func fieldsPresent() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("wide.jpg"), width: 600, height: 300)
        try TestImages.write(fixture.source("tall.png"), width: 200, height: 400, bands: 4)
        // A lossy WebP whose variants are all WebP: decoded to YUV, not RGB.
        try TestImages.write(fixture.source("photo.webp"), width: 450, height: 300, seed: 4)
        try fixture.build()
        let scratch = ScratchFolder("dppx-preview")
        for (source, ratio) in [("wide.jpg", 2.0), ("tall.png", 0.5), ("photo.webp", 1.5)] {
            let placeholder = try placeholder(fixture, source)
            let color = try #require(placeholder.color, "\(source)")
            #expect(color.count == 7 && color.hasPrefix("#"))
            let hash = try #require(placeholder.thumbHash)
            #expect(ThumbHash(base64: hash) != nil)
            #expect(placeholder.limitation == nil)
            let decoded = try preview(placeholder, in: scratch, name: (source as NSString).deletingPathExtension)
            #expect(max(decoded.width, decoded.height) == 32)
            let got = Double(decoded.width) / Double(decoded.height)
            #expect(abs(got - ratio) / ratio < 0.2, "\(source): preview \(decoded.width)x\(decoded.height) for an aspect ratio of \(ratio)")
        }
        #expect(try preview(placeholder(fixture, "tall.png"), in: scratch, name: "alpha").bands == 4, "the preview keeps alpha")
    }

    @Test("the colour is the master's: a flat master gives its own colour")
    func flatColour() throws {
        let fixture = BuildFixture()
        let pixels = [UInt8](repeating: 0, count: 300 * 200 * 3).enumerated().map { [UInt8(40), 120, 200][$0.offset % 3] }
        try TestImages.writePixels(pixels, width: 300, height: 200, bands: 3, to: fixture.source("flat.png"))
        try fixture.build()
        let placeholder = try placeholder(fixture, "flat.png")
        #expect(placeholder.color == "#2878c8")
    }

    @Test("the colour is taken in linear light at every master size: 1-px black and white stripes give the grey seen from afar",
          arguments: [80, 400])
    func linearLightAtEverySize(width: Int) throws {
        let fixture = BuildFixture()
        let height = width / 2
        let stripes = (0..<(width * height)).flatMap { [UInt8]((($0 % width) % 2 == 0) ? [0, 0, 0] : [255, 255, 255]) }
        try TestImages.writePixels(stripes, width: width, height: height, bands: 3, to: fixture.source("stripes.png"))
        // A lossy WebP whose variants are all WebP (decoded to YUV): 2-px stripes, which survive
        // the encoder well enough for their average.
        let wide = (0..<(width * height)).flatMap { [UInt8]((($0 % width) / 2 % 2 == 0) ? [0, 0, 0] : [255, 255, 255]) }
        try TestImages.writePixels(wide, width: width, height: height, bands: 3, to: fixture.source("stripes.webp") + "[Q=100]")
        try fixture.build()
        #expect(try placeholder(fixture, "stripes.png").color == "#bcbcbc")
        let webp = try #require(try placeholder(fixture, "stripes.webp").color)
        let grey = try #require(Int(webp.dropFirst().prefix(2), radix: 16))
        #expect(abs(grey - 0xbc) <= 4, "a lossy WebP's stripes: \(webp)")
    }

    @Test("the placeholder is of the upright image (EXIF orientation applied)")
    func orientation() throws {
        let fixture = BuildFixture()
        // Stored 400x200, shown 200x400.
        try TestImages.write(fixture.source("rotated.jpg"), width: 400, height: 200, orientation: 6)
        try fixture.build()
        let decoded = try preview(placeholder(fixture, "rotated.jpg"), in: ScratchFolder("dppx-preview"), name: "rotated")
        #expect(decoded.height > decoded.width)
    }

    @Test("the same master gives the same bytes; a changed master changes them; an unchanged one keeps them")
    func stability() throws {
        let first = BuildFixture(), second = BuildFixture()
        for fixture in [first, second] {
            try TestImages.write(fixture.source("a.jpg"), width: 300, height: 200)
            try TestImages.write(fixture.source("b.png"), width: 120, height: 90, bands: 4)
            try fixture.build(PlanSettings(extraFormats: [.webp]))
        }
        #expect(try first.manifestOnDisk().images.map(\.placeholder) == second.manifestOnDisk().images.map(\.placeholder))
        let before = try placeholder(first, "a.jpg")
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: first.source("b.png"))
        try TestImages.write(first.source("a.jpg"), width: 300, height: 200, seed: 9)
        let report = try first.build(PlanSettings(extraFormats: [.webp]))
        #expect(report.unchanged == ["b.png"])
        let after = try placeholder(first, "a.jpg")
        #expect(after.thumbHash != before.thumbHash)
        #expect(after.preview != before.preview)
        #expect(try placeholder(first, "b.png") == placeholder(second, "b.png"))
    }

    @Test("a manifest from before placeholders has its images rebuilt to get them")
    func olderManifest() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 300, height: 200)
        try fixture.build()
        var manifest = try fixture.manifestOnDisk()
        manifest.images = manifest.images.map { var image = $0; image.placeholder = nil; return image }
        try AtomicFile.write(manifest.encoded(), to: fixture.output(Manifest.fileName))
        let report = try fixture.build()
        #expect(report.built == ["a.jpg"])
        #expect(try placeholder(fixture, "a.jpg").thumbHash != nil)
    }

    @Test("an animation gets a colour only, a vector master nothing, and the manifest says so")
    func animationAndVector() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("spin.gif"), width: 60, height: 40, frames: 3)
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="red"/></svg>"#
        try TestImages.writeBytes(Array(svg.utf8), to: fixture.source("logo.svg"))
        try fixture.build()
        let animated = try placeholder(fixture, "spin.gif")
        #expect(animated.color != nil)
        #expect(animated.thumbHash == nil && animated.preview == nil)
        #expect(animated.limitation?.contains("animated") == true)
        let vector = try placeholder(fixture, "logo.svg")
        #expect(vector.color == nil && vector.thumbHash == nil && vector.preview == nil)
        #expect(vector.limitation?.contains("vector") == true)
    }

    @Test("a master with no visible pixel gets no colour, and the manifest says why")
    func fullyTransparent() throws {
        let fixture = BuildFixture()
        try TestImages.writePixels([UInt8](repeating: 0, count: 50 * 40 * 4), width: 50, height: 40, bands: 4, to: fixture.source("empty.png"))
        try fixture.build()
        let placeholder = try placeholder(fixture, "empty.png")
        #expect(placeholder.color == nil && placeholder.preview == nil)
        #expect(placeholder.limitation?.contains("transparent") == true)
    }

    @Test("the build's ThumbHash of a small master is PyPI thumbhash's of the same pixels")
    func agreesWithIndependentEncoder() throws {
        let fixture = BuildFixture()
        let pixels = TestImages.photoPixels(width: 90, height: 60, bands: 3, seed: 12)
        try TestImages.writePixels(pixels, width: 90, height: 60, bands: 3, to: fixture.source("small.png"))
        try fixture.build(PlanSettings(densities: [Density(1)], defaultSourceDensity: Density(1)))
        var rgba: [UInt8] = []
        for index in stride(from: 0, to: pixels.count, by: 3) { rgba += [pixels[index], pixels[index + 1], pixels[index + 2], 255] }
        let reading = try ThumbHashAgreementTests.independent([(90, 60, rgba)])
        let encoded = try #require(try placeholder(fixture, "small.png").thumbHash)
        let built = try #require(ThumbHash(base64: encoded))
        #expect(ThumbHashAgreementTests.hex(built.bytes) == reading[0].hash)
    }
}
