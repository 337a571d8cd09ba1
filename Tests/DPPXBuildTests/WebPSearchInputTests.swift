import CVips
import DPPXImaging
import DPPXTestSupport
import Testing

/// `WebPSearchInput`: its sharp conversion runs in strips (to bound libwebp's working memory),
/// and must write the files libwebp writes when it converts the whole picture sharp itself; and
/// the plain conversion's room above the goal decides between the two.
@Suite("WebP search input")
struct WebPSearchInputTests {
    @Test("strip by strip, the sharp conversion writes the same file as libwebp's whole-picture one", arguments: [
        (3, 301, 613),   // odd sizes, three strips
        (4, 301, 613),   // alpha: opaque in the first strip, translucent below
        (3, 64, 40),     // one strip
    ])
    func stripsMatchTheWholePicture(bands: Int, width: Int, height: Int) throws {
        var pixels = TestImages.photoPixels(width: width, height: height, bands: bands)
        if bands == 4 {
            for y in 0..<height {
                for x in 0..<width { pixels[(y * width + x) * 4 + 3] = y < 200 ? 255 : 128 }
            }
        }
        try Vips.start()
        let image = try #require(pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
        })
        let vipsImage = DPPXImaging.VipsImage(adopting: image)
        let settings = EncodeSettings()
        for quality in [50, 90] {
            let ours = try #require(try WebPSearchInput(vipsImage, sharp: true, file: "strips")).encode(quality: quality, settings: settings, file: "strips")
            let theirs = try Self.libwebpSharp(pixels, width: width, height: height, bands: bands, quality: quality, effort: settings.webpEffort)
            let same = ours == theirs
            #expect(same, "q\(quality): \(ours.count) bytes, libwebp's own \(theirs.count)")
        }
    }

    @Test("a grey image is left to libvips's writer: it has no colour to blur")
    func greyHasNoSharpInput() throws {
        try Vips.start()
        let pixels = TestImages.photoPixels(width: 32, height: 32, bands: 1)
        let image = try #require(pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, 32, 32, 1, VIPS_FORMAT_UCHAR)
        })
        let grey = DPPXImaging.VipsImage(adopting: image)
        #expect(try WebPSearchInput(grey, sharp: true, file: "grey") == nil)
        #expect(try WebPSearchInput.inputs(for: grey, sample: nil, goal: 100, file: "grey") == nil)
    }

    @Test("sharp pays where the plain conversion alone, nothing compressed, scores under the goal plus the headroom; that score bounds every plain WebP's")
    func sharpPaysBelowTheHeadroom() throws {
        try Vips.start()
        let pixels = ScenePicture.pixels(width: 480, height: 320)
        let image = try #require(pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, 480, 320, 3, VIPS_FORMAT_UCHAR)
        })
        let scene = DPPXImaging.VipsImage(adopting: image)
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        try #require(cvips_webp_plain_roundtrip(scene.pointer, &out) == 0)
        let roundTrip = DPPXImaging.VipsImage(adopting: try #require(out))
        let ceiling = try PerceptualScore.ssimulacra2(reference: scene, distorted: roundTrip, file: "scene")
        let plainBest = try PerceptualScore.ssimulacra2(
            reference: scene, encoded: Encoder.encode(scene, as: .webp, settings: EncodeSettings().fixing(.webp, at: 100), losslessSource: false, file: "scene"),
            file: "scene")
        #expect(plainBest <= ceiling + 0.5, "plain q100 scores \(plainBest), the conversion alone \(ceiling)")
        #expect(ceiling < 99, "the plain conversion blurs the scene's colour edges: \(ceiling)")
        let headroom = WebPSearchInput.headroom
        #expect(try #require(try WebPSearchInput.inputs(for: scene, sample: nil, goal: ceiling - headroom + 0.01, file: "scene")).whole.sharp)
        #expect(try !#require(try WebPSearchInput.inputs(for: scene, sample: nil, goal: ceiling - headroom - 0.01, file: "scene")).whole.sharp)
    }

    /// libwebp's own: ARGB in, `use_sharp_yuv`, the whole picture converted inside WebPEncode.
    static func libwebpSharp(_ pixels: [UInt8], width: Int, height: Int, bands: Int, quality: Int, effort: Int) throws -> [UInt8] {
        var config = WebPConfig()
        var picture = WebPPicture()
        try #require(WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, Float(quality), WEBP_ENCODER_ABI_VERSION) != 0)
        try #require(WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0)
        config.method = Int32(effort)
        config.use_sharp_yuv = 1
        picture.use_argb = 1
        picture.width = Int32(width)
        picture.height = Int32(height)
        defer { WebPPictureFree(&picture) }
        let imported = pixels.withUnsafeBytes { raw in
            let rows = raw.bindMemory(to: UInt8.self).baseAddress
            return bands == 4 ? WebPPictureImportRGBA(&picture, rows, Int32(width * 4)) : WebPPictureImportRGB(&picture, rows, Int32(width * 3))
        }
        try #require(imported != 0)
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture)
        }
        try #require(encoded != 0, "libwebp error \(picture.error_code.rawValue)")
        return Array(UnsafeBufferPointer(start: writer.mem, count: writer.size))
    }
}
