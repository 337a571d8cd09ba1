import CVips
import DPPXCore
import Foundation

/// A master opened for building: its header is read on open; pixels are decoded once, on
/// `decode()`, and every variant is resized from that decoded copy.
public final class MasterImage: @unchecked Sendable {
    /// The path as given, for messages.
    public let path: String
    /// The format the file's content is in (not its extension).
    public let format: ImageFormat
    /// The upright size of one frame.
    public let size: PixelSize
    /// Frames: more than 1 for an animated GIF or WebP.
    public let frames: Int
    /// Whether the master has an alpha channel.
    public let hasAlpha: Bool
    /// EXIF orientation, 1 when upright.
    public let orientation: Int

    /// The pixels need no conversion: 8-bit sRGB or grey, no ICC profile, upright, one frame.
    /// Such a master's own-size output can be its pixel data as it is (see `PNGChunks`).
    public let isDisplayReady: Bool

    /// Reads the header of `path` without decoding pixels, refusing masters over `maxPixels`
    /// (decompression bombs) before any pixel memory is allocated.
    public init(path: String, maxPixels: Int) throws(ImagingError) {
        try Vips.start()
        self.path = path
        guard vips_foreign_find_load(path) != nil else {
            throw ImagingError(file: path, reason: Vips.takeErrorText(), code: .unknownFormat)
        }
        let header: VipsImage
        do {
            header = try VipsImage.make(file: path) { cvips_open_header(path, $0) }
        } catch {
            let detail = error.reason == Vips.unknownError ? "" : " (\(error.reason))"
            throw ImagingError(file: path, reason: "could not be read\(detail): the file is damaged or truncated; export it again")
        }
        let loader = header.loader ?? ""
        let heifCompression = cvips_get_string(header.pointer, "heif-compression").map { String(cString: $0) }
        guard let format = ImageFormat(loader: loader, heifCompression: heifCompression) else {
            throw ImagingError(file: path, reason: "is a format dppx does not take as a master (libvips read it with '\(loader)'); use JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC or SVG")
        }
        let frames = header.pages
        let frame = header.uprightSize
        guard frame.width > 0, frame.height > 0 else {
            throw ImagingError(file: path, reason: "has no pixels (\(frame.width)x\(frame.height))")
        }
        let total = frame.width.multipliedReportingOverflow(by: frame.height * frames)
        guard !total.overflow, total.partialValue <= maxPixels else {
            throw ImagingError(file: path, reason: "is \(frame.width)x\(frame.height)\(frames > 1 ? " x \(frames) frames" : ""), more than the limit of \(maxPixels) pixels; raise --max-pixels if it is genuine")
        }
        // The header image is not kept: some loaders (WebP) hold a whole frame buffer for it.
        self.isDisplayReady = frames == 1 && header.orientation == 1 && header.bandFormat == VIPS_FORMAT_UCHAR
            && !header.hasICCProfile
            && (header.interpretation == VIPS_INTERPRETATION_sRGB || header.interpretation == VIPS_INTERPRETATION_B_W)
        self.format = format
        self.size = frame
        self.frames = frames
        self.hasAlpha = header.hasAlpha
        self.orientation = header.orientation
    }

    /// Decodes every pixel (and every frame of an animation) into memory once: upright, 8-bit,
    /// sRGB (or grey). Every variant is resized from this copy. Damaged or truncated data is an
    /// error, not grey fill.
    ///
    /// `outputs` are the formats the variants will be written in. When they are all WebP and
    /// the master is a lossy WebP without alpha, the pixels stay in the form both ends of the
    /// job use, YUV 4:2:0: half the memory of RGB, and no conversion to RGB and back.
    public func decode(for outputs: Set<ImageFormat> = []) throws(ImagingError) -> DecodedImage {
        let path = self.path
        if format == .webp && isDisplayReady && outputs == [.webp] {
            var picture: UnsafeMutablePointer<WebPPicture>?
            let status = cvips_webp_decode_yuv_file(path, &picture)
            if status < 0 { throw ImagingError(file: path, reason: Vips.takeErrorText()) }
            if status == 0, let picture { return DecodedImage(path: path, yuv: picture, size: size) }
        }
        if format == .webp && isDisplayReady {
            // libvips's WebP loader holds two full-size RGBA frames while decoding; this holds
            // only the pixels.
            let decoded = try VipsImage.make(file: path) { cvips_webp_decode_file(path, $0) }
            return DecodedImage(path: path, image: try DecodedImage.withoutOpaqueAlpha(decoded, file: path), frames: 1, frameSize: size)
        }
        let pages: Int32 = frames > 1 ? -1 : 1
        // Rotating needs random access; everything else streams from the file.
        let rotate = frames == 1 && orientation != 1
        var image = try VipsImage.make(file: path) { cvips_open(path, pages, rotate ? 1 : 0, $0) }
        if rotate {
            let stored = image
            image = try VipsImage.make(file: path) { cvips_autorot(stored.pointer, $0) }
        }
        image = try DecodedImage.toDisplayColour(image, file: path)
        let displayable = image
        var decoded = try VipsImage.make(file: path) { cvips_copy_memory(displayable.pointer, $0) }
        if frames == 1 { decoded = try DecodedImage.withoutOpaqueAlpha(decoded, file: path) }
        return DecodedImage(path: path, image: decoded, frames: frames, frameSize: size)
    }
}

/// A master's pixels in memory, from which each variant is resized.
///
/// Usually a libvips image (RGB, RGBA or grey). For a lossy WebP master written only as WebP,
/// libwebp's own YUV 4:2:0 picture (`MasterImage.decode(for:)`): its variants are resized
/// plane by plane, and the picture itself becomes the input of the master-size variant.
public final class DecodedImage: @unchecked Sendable {
    let path: String
    let frames: Int
    let frameSize: PixelSize
    private let rgb: VipsImage?
    private let yuv: YUVPicture?

    init(path: String, image: VipsImage, frames: Int, frameSize: PixelSize) {
        self.path = path
        self.rgb = image
        self.yuv = nil
        self.frames = frames
        self.frameSize = frameSize
    }

    init(path: String, yuv picture: UnsafeMutablePointer<WebPPicture>, size: PixelSize) {
        self.path = path
        self.rgb = nil
        self.yuv = YUVPicture(picture)
        self.frames = 1
        self.frameSize = size
    }

    /// Whether the pixels have an alpha band (not when the master's was opaque everywhere).
    public var hasAlpha: Bool { rgb?.hasAlpha ?? false }

    /// Whether the pixels are libwebp's YUV 4:2:0 rather than a libvips image.
    public var isYUV: Bool { yuv != nil }

    /// How many images read these pixels besides this handle: resizes not yet run or
    /// encoders still reading. At 0, dropping this handle frees the pixels. (A YUV picture is
    /// read by nothing else: its resizes run when an input is taken.)
    public var otherReaders: Int {
        guard let rgb else { return 0 }
        return Int(cvips_ref_count(rgb.pointer)) - 1
    }

    /// Bytes of pixels held.
    public var byteCount: Int {
        guard let rgb else { return frameSize.width * frameSize.height * 3 / 2 }
        return rgb.width * rgb.fullHeight * rgb.bands * (rgb.bandFormat == VIPS_FORMAT_UCHAR ? 1 : 2)
    }

    /// The input `format`'s encoder reads for the variant at `target` (see `Encoder.input`).
    ///
    /// From YUV pixels, a smaller variant's input is resized plane by plane; the master-size
    /// variant's input is the decoded picture itself, handed over without a copy, so take it
    /// last: nothing can be resized from this image afterwards.
    public func encoderInput(at target: PixelSize, for format: ImageFormat, settings: EncodeSettings,
                             losslessSource: Bool, file: String) throws(ImagingError) -> EncoderInput {
        guard let yuv else {
            return try Encoder.input(resized(to: target), for: format, settings: settings,
                                     losslessSource: losslessSource, file: file)
        }
        guard format == .webp else {
            throw ImagingError(file: file, reason: "was decoded for WebP variants only, not \(format.rawValue) (a dppx bug; please report it)")
        }
        let picture: UnsafeMutablePointer<WebPPicture>
        if target == frameSize {
            guard let whole = yuv.handOver() else { throw YUVPicture.spent(file) }
            picture = whole
        } else {
            picture = try yuv.withPicture(file: file) { (source) throws(ImagingError) in
                var resized: UnsafeMutablePointer<WebPPicture>?
                guard cvips_webp_input_resized(source, Int32(target.width), Int32(target.height), &resized) == 0, let resized else {
                    throw ImagingError(file: file, reason: "could not be resized to \(target.width)x\(target.height): \(Vips.takeErrorText())")
                }
                return resized
            }
        }
        return EncoderInput(format: .webp, lossless: false, pixels: .webp(picture),
                            ownBytes: target.width * target.height * 3 / 2)
    }

    /// The image at exactly `target` (per frame), alpha premultiplied during the resize.
    public func resized(to target: PixelSize) throws(ImagingError) -> VipsImage {
        let path = self.path
        guard let image = rgb else {
            throw ImagingError(file: path, reason: "was decoded to YUV for WebP variants; take its inputs with encoderInput(at:for:) (a dppx bug; please report it)")
        }
        if frames > 1 { return try resizeAnimation(to: target, of: image) }
        if target == frameSize { return image }
        if image.hasAlpha {
            let hscale = Double(target.width) / Double(frameSize.width)
            let vscale = Double(target.height) / Double(frameSize.height)
            let resized = try VipsImage.make(file: path) { cvips_resize_premultiplied(image.pointer, hscale, vscale, $0) }
            if resized.width == target.width && resized.fullHeight == target.height { return resized }
            // libvips rounded to a neighbouring size: thumbnail forces the exact one.
        }
        return try VipsImage.make(file: path) {
            cvips_thumbnail_image(image.pointer, Int32(target.width), Int32(target.height), $0)
        }
    }

    /// Animations resize as one tall strip of frames, then get their frame height back.
    private func resizeAnimation(to target: PixelSize, of image: VipsImage) throws(ImagingError) -> VipsImage {
        let path = self.path
        if target == frameSize { return image }
        let hscale = Double(target.width) / Double(frameSize.width)
        // Aim at the centre of the wanted pixel count so libvips's rounding lands on it.
        let vscale = (Double(target.height * frames) + 0.25) / Double(frameSize.height * frames)
        let out = image.hasAlpha
            ? try VipsImage.make(file: path) { cvips_resize_premultiplied(image.pointer, hscale, vscale, $0) }
            : try VipsImage.make(file: path) { cvips_resize(image.pointer, hscale, vscale, $0) }
        let copy = try VipsImage.make(file: path) { cvips_copy(out.pointer, $0) }
        cvips_set_int(copy.pointer, "page-height", Int32(target.height))
        return copy
    }

    /// `image` without its alpha band when every pixel is fully opaque, as most PNGs saved "with
    /// transparency" are: the same picture, resized without premultiplying (in 8 bits, not
    /// float) and encoded with a quarter less data. Done in place in the decoded buffer, so only
    /// for an image nothing else refers to.
    static func withoutOpaqueAlpha(_ image: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        guard image.hasAlpha, cvips_ref_count(image.pointer) == 1 else { return image }
        var opaque: UnsafeMutablePointer<CVips.VipsImage>?
        let status = cvips_drop_opaque_alpha(image.pointer, &opaque)
        if status == 1 { return image }
        guard status == 0, let opaque else { throw ImagingError(file: file, reason: Vips.takeErrorText()) }
        return VipsImage(adopting: opaque)
    }

    /// 8-bit sRGB, or 8-bit grey, whatever the master was (CMYK, 16-bit, embedded profiles).
    static func toDisplayColour(_ input: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        var image = input
        let grey = image.interpretation == VIPS_INTERPRETATION_B_W || image.interpretation == VIPS_INTERPRETATION_GREY16
        if image.interpretation == VIPS_INTERPRETATION_CMYK || (image.hasICCProfile && !grey) {
            // The embedded profile when there is one; libvips's CMYK profile for bare CMYK.
            let source = image
            let fallback = image.interpretation == VIPS_INTERPRETATION_CMYK ? "cmyk" : "srgb"
            image = try VipsImage.make(file: file) { cvips_icc_to_srgb(source.pointer, fallback, $0) }
        }
        switch image.interpretation {
        case VIPS_INTERPRETATION_sRGB, VIPS_INTERPRETATION_B_W:
            break
        case VIPS_INTERPRETATION_GREY16:
            let grey = image
            image = try VipsImage.make(file: file) { cvips_colourspace(grey.pointer, VIPS_INTERPRETATION_B_W, $0) }
        default:
            let other = image
            image = try VipsImage.make(file: file) { cvips_colourspace(other.pointer, VIPS_INTERPRETATION_sRGB, $0) }
        }
        if image.bandFormat != VIPS_FORMAT_UCHAR {
            let wide = image
            image = try VipsImage.make(file: file) { cvips_cast(wide.pointer, VIPS_FORMAT_UCHAR, $0) }
        }
        return image
    }
}

/// libwebp's YUV picture behind a `DecodedImage`: read by the resizes, then handed over once.
private final class YUVPicture: @unchecked Sendable {
    private let lock = NSLock()
    private var picture: UnsafeMutablePointer<WebPPicture>?

    init(_ picture: UnsafeMutablePointer<WebPPicture>) { self.picture = picture }

    /// Runs `body` on the picture while it is still here.
    func withPicture<T>(file: String, _ body: (UnsafeMutablePointer<WebPPicture>) throws(ImagingError) -> T) throws(ImagingError) -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let picture else { throw Self.spent(file) }
        return try body(picture)
    }

    /// The error for asking after the picture was handed over.
    static func spent(_ file: String) -> ImagingError {
        ImagingError(file: file, reason: "has no pixels left: its full-size WebP input was already taken (a dppx bug; please report it)")
    }

    /// The picture, once; its new owner frees it.
    func handOver() -> UnsafeMutablePointer<WebPPicture>? {
        lock.lock()
        defer { picture = nil; lock.unlock() }
        return picture
    }

    deinit { if let picture { cvips_webp_input_free(picture) } }
}
