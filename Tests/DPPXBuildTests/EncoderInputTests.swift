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
        let pixels = try #require(decoded.rgb)
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
        let input = try Encoder.input(try #require(decoded.rgb).resized(to: PixelSize(width: 100, height: 50)), for: .jpeg,
                                      settings: EncodeSettings(), losslessSource: true, file: path)
        #expect(input.holdsImage)
        #expect(input.ownBytes == 0)
        #expect(decoded.otherReaders > 0, "the JPEG input's resize reads the master")
        let bytes = try Encoder.encode(input, settings: EncodeSettings(), file: path)
        #expect(bytes.starts(with: [0xFF, 0xD8]))
    }

    @Test("a lossy WebP master written only as WebP stays YUV 4:2:0: half the bytes of RGB, resized plane by plane, the same picture")
    func webpMasterStaysYUV() throws {
        let folder = ScratchFolder("dppx-input")
        let path = folder("master.webp")
        try TestImages.writeColourBars(path, width: 601, height: 401)
        let master = try MasterImage(path: path, limits: DecodeLimits(maxPixels: 100_000_000))
        let settings = EncodeSettings()

        let yuv = try master.decode(for: [.webp])
        #expect(yuv.isYUV)
        #expect(yuv.byteCount == 601 * 401 * 3 / 2)
        let rgb = try #require(try master.decode().rgb)

        // Odd sizes on purpose: the chroma planes round up.
        let sizes = [PixelSize(width: 301, height: 201), PixelSize(width: 451, height: 301), PixelSize(width: 601, height: 401)]
        let inputs = try yuv.encoderInputs(for: sizes.map { ($0, .webp) }, settings: settings, losslessSource: false, file: path)
        for (size, input) in zip(sizes, inputs) {
            #expect(!input.holdsImage)
            #expect(input.ownBytes == size.width * size.height * 3 / 2)
            let fromYUV = folder("yuv-\(size.width).webp")
            try AtomicFile.write(try Encoder.encode(input, settings: settings, file: path), to: fromYUV)
            let fromRGB = folder("rgb-\(size.width).webp")
            try AtomicFile.write(try Encoder.encode(rgb.resized(to: size), as: .webp, settings: settings, losslessSource: false, file: path),
                                 to: fromRGB)
            let a = try DecodedFile(fromYUV), b = try DecodedFile(fromRGB)
            #expect(a.width == size.width && a.height == size.height && a.bands == 3)
            // The same picture: each bar's colour where the RGB path puts it.
            let bars = TestImages.barColours.count
            for bar in 0..<bars {
                let x = (Double(bar) + 0.3) / Double(bars)...(Double(bar) + 0.7) / Double(bars)
                for band in 0..<3 {
                    let yuvMean = a.mean(band: band, x: x, y: 0.1...0.3), rgbMean = b.mean(band: band, x: x, y: 0.1...0.3)
                    #expect(abs(yuvMean - rgbMean) < 3, "\(size), bar \(bar), band \(band): \(yuvMean) against \(rgbMean)")
                }
            }
            let difference = Double(zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.pixels.count)
            #expect(difference < 2, "\(size): mean difference \(difference) from the RGB path")
        }
        // The master-size input was the decoded picture itself: nothing is left to resize.
        #expect(throws: ImagingError.self) {
            try yuv.encoderInputs(for: [(sizes[0], .webp)], settings: settings, losslessSource: false, file: path)
        }
    }

    @Test("WebP masters with alpha, lossless WebP, and WebP masters with other output formats decode to RGB as before")
    func yuvOnlyWhereItFits() throws {
        let folder = ScratchFolder("dppx-input")
        let lossy = folder("lossy.webp")
        try TestImages.write(lossy, width: 64, height: 48)
        let alpha = folder("alpha.webp")
        try TestImages.write(alpha, width: 64, height: 48, bands: 4)
        let lossless = folder("lossless.webp")
        try TestImages.write(lossless + "[lossless]", width: 64, height: 48)
        let jpeg = folder("photo.jpg")
        try TestImages.write(jpeg, width: 64, height: 48)

        func decodesToYUV(_ path: String, _ outputs: Set<ImageFormat>) throws -> Bool {
            try MasterImage(path: path, limits: DecodeLimits(maxPixels: 1_000_000)).decode(for: outputs).isYUV
        }
        #expect(try decodesToYUV(lossy, [.webp]))
        #expect(try !decodesToYUV(lossy, [.webp, .avif]))
        #expect(try !decodesToYUV(lossy, []))
        #expect(try !decodesToYUV(alpha, [.webp]))
        #expect(try !decodesToYUV(lossless, [.webp]))
        #expect(try !decodesToYUV(jpeg, [.webp]))
    }
}

extension DecodedImage {
    /// The libvips image, when the master was decoded to one.
    var rgb: DecodedPixels? {
        if case .pixels(let pixels) = self { return pixels }
        return nil
    }

    var isYUV: Bool {
        if case .webpYUV = self { return true }
        return false
    }
}
