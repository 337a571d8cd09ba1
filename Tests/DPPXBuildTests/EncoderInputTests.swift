import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Testing

/// A WebP output takes its pixels from the decoded master before it is encoded, so the master
/// (50 MB at 4096x4096) is not held through encodes many times longer than the resize.
@Suite("Encoder inputs")
struct EncoderInputTests {
    @Test("a WebP input holds its own pixels: nothing refers to the decoded master before the encode, and the bytes are the same")
    func webpInputReleasesTheMaster() throws {
        let folder = ScratchFolder("dppx-input")
        let path = folder("master.jpg")
        try TestImages.write(path, width: 3000, height: 2000)
        let master = try MasterImage(path: path, limits: DecodeLimits(maxPixels: 100_000_000))
        let settings = EncodeSettings()
        let sizes = [PixelSize(width: 1500, height: 1000), PixelSize(width: 3000, height: 2000)]

        let decoded = try master.decode()
        let pixels = decoded
        #expect(decoded.otherReaders == 0)
        let inputs = try sizes.map { size in
            try Encoder.input(pixels.resized(to: size), for: .webp, settings: settings, losslessSource: false, file: path)
        }
        for (input, size) in zip(inputs, sizes) {
            #expect(!input.holdsImage)
            #expect(input.ownBytes == size.width * size.height * 3 / 2)
        }
        // Nothing taken refers to the master: dropping the decoded handle frees its pixels.
        #expect(decoded.otherReaders == 0)
        let direct = try sizes.map { size in
            try Encoder.encode(pixels.resized(to: size), as: .webp, settings: settings, losslessSource: false, file: path)
        }
        for (input, expected) in zip(inputs, direct) {
            #expect(try Encoder.encode(input, settings: settings, file: path) == expected)
        }
        // An input is encoded once.
        #expect(throws: ImagingError.self) { try Encoder.encode(inputs[0], settings: settings, file: path) }
    }

    @Test("a JPEG input reads the master while it encodes, so it keeps it")
    func jpegInputKeepsTheImage() throws {
        let folder = ScratchFolder("dppx-input")
        let path = folder("master.png")
        try TestImages.write(path, width: 200, height: 100, bands: 4)
        let master = try MasterImage(path: path, limits: DecodeLimits(maxPixels: 100_000_000))
        let decoded = try master.decode()
        let input = try Encoder.input(decoded.resized(to: PixelSize(width: 100, height: 50)), for: .jpeg,
                                      settings: EncodeSettings(), losslessSource: true, file: path)
        #expect(input.holdsImage)
        #expect(input.ownBytes == 0)
        #expect(decoded.otherReaders > 0, "the JPEG input's resize reads the master")
        let bytes = try Encoder.encode(input, settings: EncodeSettings(), file: path)
        #expect(bytes.starts(with: [0xFF, 0xD8]))
    }

    @Test("a lossy WebP master written only as WebP is resized in RGB like every master: each variant is the RGB resize's WebP, byte for byte (in YUV it took more bytes at the same score)")
    func webpMasterResizedInRGB() throws {
        let fixture = BuildFixture()
        try TestImages.writeColourBars(fixture.source("bars@2x.webp"), width: 601, height: 401)
        let report = try fixture.build()
        #expect(report.failures.isEmpty)
        let master = try MasterImage(path: fixture.source("bars@2x.webp"), limits: DecodeLimits(maxPixels: 1_000_000))
        let decoded = try master.decode()
        let rgb = decoded
        #expect(decoded.byteCount == 601 * 401 * 3)
        // Odd sizes on purpose: in YUV the chroma planes rounded up.
        let variants = try #require(fixture.manifestOnDisk().images.first).variants
        #expect(variants.map(\.path) == ["bars.webp", "bars@1.5x.webp", "bars@2x.webp"])
        for variant in variants {
            let size = PixelSize(width: variant.width, height: variant.height)
            let expected = try Encoder.encode(rgb.resized(to: size), as: .webp, settings: EncodeSettings(), losslessSource: false, file: variant.path)
            #expect(try AtomicFile.read(fixture.output(variant.path)) == expected, "\(variant.path)")
        }
    }
}
