import CVips
import DPPXCore

/// An output's pixels as its encoder takes them, made before the encode runs.
///
/// libwebp works from its own copy of the pixels (YUV 4:2:0, 1.5 bytes a pixel), so a WebP
/// input takes that copy at once and lets go of the image it came from: the decoded master
/// behind it can be freed while the encode, many times longer than the resize, runs. The
/// other encoders read their image while they write, so their input keeps the image (and the
/// master) until it is encoded.
public final class EncoderInput: @unchecked Sendable {
    enum Pixels {
        case image(VipsImage)
        case webp(UnsafeMutablePointer<WebPPicture>)
    }

    /// The format it is for.
    public let format: ImageFormat
    /// JPEG XL only: written losslessly.
    public let lossless: Bool
    /// Bytes it holds of its own, apart from the image it was made from.
    public let ownBytes: Int
    private var pixels: Pixels?

    init(format: ImageFormat, lossless: Bool, pixels: Pixels, ownBytes: Int) {
        self.format = format
        self.lossless = lossless
        self.pixels = pixels
        self.ownBytes = ownBytes
    }

    /// Whether it still refers to the image it was made from (and so keeps the master alive).
    public var holdsImage: Bool {
        if case .image = pixels { return true }
        return false
    }

    /// The pixels, still held.
    fileprivate func peek() -> Pixels? { pixels }

    /// Hands the pixels to the encoder, once.
    fileprivate func take() -> Pixels? {
        defer { pixels = nil }
        return pixels
    }

    deinit {
        if case .webp(let picture) = pixels { cvips_webp_input_free(picture) }
    }
}

/// Encodes a resized image into a file's bytes, metadata stripped.
public enum Encoder {
    /// The encoded bytes of `image` in `format`. `file` names the master in errors.
    public static func encode(_ image: VipsImage, as format: ImageFormat, settings: EncodeSettings,
                              losslessSource: Bool, file: String) throws(ImagingError) -> [UInt8] {
        try encode(input(image, for: format, settings: settings, losslessSource: losslessSource, file: file),
                   settings: settings, file: file)
    }

    /// What `format`'s encoder will read `image` from: for WebP, libwebp's own copy of the
    /// pixels, taken now (the resize behind `image` runs here); for the others, `image` itself.
    public static func input(_ image: VipsImage, for format: ImageFormat, settings: EncodeSettings,
                             losslessSource: Bool, file: String) throws(ImagingError) -> EncoderInput {
        // dppx's WebP is always lossy (a PNG master's alpha stays exact: libwebp keeps alpha
        // losslessly in a lossy file).
        let lossless = format == .jxl && losslessSource && settings.jxlQuality == nil
        // A quality search encodes the resized pixels several times: it keeps the image.
        guard format == .webp, image.takenByLibWebP, image.pageHeight == image.fullHeight,
              !QualitySearch.applies(to: image, format: format, settings: settings, lossless: lossless) else {
            return EncoderInput(format: format, lossless: lossless, pixels: .image(image), ownBytes: 0)
        }
        // libwebp straight from the pixels: the bitstream libvips's saver writes, without its
        // copy of the whole image and without the EXIF chunk it adds even when stripping.
        let picture = try image.webpPicture(sharp: false, file: file)
        let pixels = image.width * image.fullHeight
        let bytes = pixels * 3 / 2 + (image.bands == 4 ? pixels : 0)
        return EncoderInput(format: format, lossless: lossless, pixels: .webp(picture), ownBytes: bytes)
    }

    /// The encoded bytes of `input` (each input is encoded once) and, where its format's
    /// quality is `auto`, what the search chose for a variant drawn at `density`, aiming at
    /// that density's target (its scores taking `scoreThreads()` threads each).
    public static func encode(_ input: EncoderInput, settings: EncodeSettings, density: Density,
                              scoreThreads: () -> Int = { 1 },
                              file: String) throws(ImagingError) -> (bytes: [UInt8], choice: Manifest.QualitySearchResult?) {
        if case .image(let image)? = input.peek(),
           QualitySearch.applies(to: image, format: input.format, settings: settings, lossless: input.lossless) {
            _ = input.take()
            let found = try QualitySearch.encode(image, as: input.format, settings: settings,
                                                 density: density, losslessSource: input.lossless, scoreThreads: scoreThreads, file: file)
            return (found.bytes, found.choice)
        }
        return (try encode(input, settings: settings, file: file), nil)
    }

    /// The encoded bytes of `input` (each input is encoded once). `file` names the master in errors.
    public static func encode(_ input: EncoderInput, settings: EncodeSettings, file: String) throws(ImagingError) -> [UInt8] {
        let format = input.format
        guard let pixels = input.take() else {
            throw ImagingError(file: file, reason: "was already encoded as \(format.rawValue) (an input is encoded once)")
        }
        let image: VipsImage
        switch pixels {
        case .webp(let picture):
            defer { cvips_webp_input_free(picture) }
            return try encodeWebP(picture, quality: settings.encoderQuality(for: .webp),
                                  effort: settings.webpEffort, file: file)
        case .image(let pixels):
            image = pixels
        }
        // Runs again alone if it fails (see `Vips.attributed`): the image stays valid.
        let bytes = try Vips.attributed { () throws(ImagingError) -> [UInt8] in
            try collect(format: format, file: file) { (buffer, length) throws(ImagingError) in
                try encodeWithLibvips(image, as: format, lossless: input.lossless, settings: settings, file: file, into: &buffer, length: &length)
            }
        }
        // libvips 8.14's WebP saver writes the master's EXIF and XMP even when stripping.
        guard format == .webp else { return bytes }
        guard let stripped = WebPChunks.strippingMetadata(bytes) else {
            throw ImagingError(file: file, reason: "could not be encoded as webp: libvips wrote a malformed file")
        }
        return stripped
    }

    /// The bytes libwebp writes for `picture` (from `cvips_webp_input_new`, and still the
    /// caller's to free) at `quality` and `effort`. `failure` begins the error's message.
    static func encodeWebP(_ picture: UnsafeMutablePointer<WebPPicture>, quality: Int32, effort: Int,
                           file: String, failure: String = "could not be encoded as webp") throws(ImagingError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let error = cvips_webp_picture_encode(picture, quality, Int32(effort), &buffer, &length)
        guard error == 0, let buffer else {
            let reason = error == Int32(VP8_ENC_ERROR_OUT_OF_MEMORY.rawValue) ? "out of memory" : "libwebp error \(error)"
            throw ImagingError(file: file, reason: "\(failure): \(reason)")
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// The JPEG XL holding `jpeg` (a JPEG variant's bytes) losslessly: libjxl's recompression,
    /// which a decoder turns back into the same JPEG bit for bit, in about a fifth fewer bytes.
    /// libvips's saver would encode the decoded pixels instead, neither exact nor as small.
    /// `file` names the master in errors.
    public static func recompressJPEG(_ jpeg: [UInt8], settings: EncodeSettings, file: String) throws(ImagingError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let error = jpeg.withUnsafeBytes { bytes in
            cvips_jxl_from_jpeg(bytes.baseAddress, bytes.count, Int32(settings.jxlEffort), Int32(Vips.threadsPerOperation), &buffer, &length)
        }
        guard error == 0, let buffer else {
            let reason = switch error {
            case Int32(JXL_ENC_ERR_OOM.rawValue): "out of memory"
            case Int32(JXL_ENC_ERR_JBRD.rawValue): "libjxl cannot reconstruct this JPEG"
            case Int32(JXL_ENC_ERR_BAD_INPUT.rawValue): "libjxl rejected the JPEG"
            default: "libjxl error \(error)"
            }
            throw ImagingError(file: file, reason: "could not be recompressed as jxl: \(reason)")
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// Runs an encoder writing a g_malloc'd buffer and returns its bytes.
    private static func collect(format: ImageFormat, file: String,
                                _ body: (inout UnsafeMutableRawPointer?, inout Int) throws(ImagingError) -> Int32) throws(ImagingError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status = try body(&buffer, &length)
        guard status == 0, let buffer else {
            throw ImagingError.libvips(file: file, "could not be encoded as \(format.rawValue): ")
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    private static func encodeWithLibvips(_ image: VipsImage, as format: ImageFormat, lossless: Bool, settings: EncodeSettings, file: String,
                                          into buffer: inout UnsafeMutableRawPointer?, length: inout Int) throws(ImagingError) -> Int32 {
        let status: Int32
        switch format {
        case .jpeg:
            // JPEG has no alpha: flatten onto white rather than let transparent pixels go black.
            let flat = try flattened(image, file: file)
            status = cvips_jpegsave(flat.pointer, settings.encoderQuality(for: .jpeg), settings.jpegProgressive ? 1 : 0,
                                    chromaCode(settings.chroma), &buffer, &length)
        case .png:
            status = cvips_pngsave(image.pointer, Int32(settings.pngCompression), 7, &buffer, &length)
        case .webp:
            // Animations and grey images, which libwebp's own import does not take.
            status = cvips_webpsave(image.pointer, settings.encoderQuality(for: .webp), Int32(settings.webpEffort), &buffer, &length)
        case .avif:
            status = cvips_avifsave(image.pointer, settings.encoderQuality(for: .avif), Int32(settings.avifEffort),
                                    chromaCode(settings.chroma), &buffer, &length)
        case .gif:
            status = cvips_gifsave(image.pointer, 7, &buffer, &length)
        case .tiff:
            status = cvips_tiffsave(image.pointer, &buffer, &length)
        case .jxl:
            status = cvips_jxlsave(image.pointer, settings.encoderQuality(for: .jxl), lossless ? 1 : 0,
                                   Int32(settings.jxlEffort), &buffer, &length)
        case .heic, .svg:
            throw ImagingError(file: file, reason: "dppx cannot write \(format.rawValue) variants; write JPEG, PNG, WebP, AVIF or JPEG XL")
        }
        return status
    }

    /// The C savers' chroma: 0 libvips's choice, 1 4:2:0, 2 4:4:4.
    private static func chromaCode(_ chroma: Chroma?) -> Int32 {
        switch chroma {
        case nil: 0
        case .subsampled: 1
        case .full: 2
        }
    }

    private static func flattened(_ image: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        guard image.hasAlpha else { return image }
        return try VipsImage.make(file: file) { cvips_flatten_white(image.pointer, $0) }
    }
}
