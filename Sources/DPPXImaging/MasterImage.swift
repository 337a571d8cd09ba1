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
    /// Frames: more than 1 for an animated GIF or WebP, or a TIFF of several pages.
    public let frames: Int
    /// Whether the master has an alpha channel.
    public let hasAlpha: Bool
    /// EXIF orientation, 1 when upright.
    public let orientation: Int
    /// How damaged the pixel data may be (`DecodeLimits.failOn`).
    public let failOn: FailOn

    /// The pixels need no conversion: 8-bit sRGB or grey, no ICC profile, upright, one frame.
    /// Such a master's own-size output can be its pixel data as it is (see `PNGChunks`).
    public var isDisplayReady: Bool { isShownAsDecoded && !hasICCProfile }
    /// The decoded pixels are what a browser shows of the file itself: 8-bit sRGB or grey,
    /// upright, one frame, through its ICC profile when it has one (a JPEG keeps its profile in
    /// its own bytes, see `JPEGSegments`).
    public let isShownAsDecoded: Bool
    /// Whether the file embeds an ICC profile.
    public let hasICCProfile: Bool

    /// The file's bytes, read once (by the build, hashed as they were read): the frame count,
    /// the header, the pixels and an own-size output that keeps the master's bytes are all
    /// taken from them, so every one is of the file that was hashed.
    public let bytes: [UInt8]

    /// Reads the header of `bytes` (the content of `path`, named in messages) without decoding
    /// pixels, and refuses a master over one of `limits` (decompression bombs) before any
    /// pixel memory is allocated. SVGs are never rendered, so no pixel limit applies to them.
    public init(path: String, bytes: [UInt8], limits: DecodeLimits) throws(ImagingError) {
        try Vips.start()
        self.path = path
        self.bytes = bytes
        // Before libvips reads the header: its own count can take minutes.
        let counted = bytes.withUnsafeBytes { FrameCounter.count($0) }
        if let counted, counted.frames > limits.maxFrames {
            throw Self.tooManyFrames(path, counted.frames, counted.noun, limit: limits.maxFrames)
        }
        let header = try Self.readHeader(path, bytes)
        guard let format = ImageFormat(loader: header.loader, heifCompression: header.heifCompression) else {
            throw ImagingError(file: path, reason: "is a format dppx does not take as a master (libvips read it with '\(header.loader)'); use JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC or SVG")
        }
        let frame = header.uprightSize
        guard frame.width > 0, frame.height > 0 else {
            throw ImagingError(file: path, reason: "has no pixels (\(frame.width)x\(frame.height))")
        }
        let frames = format == .svg ? 1 : header.pages
        if format != .svg {
            guard frames <= limits.maxFrames else {
                throw Self.tooManyFrames(path, frames, format == .tiff ? "pages" : "frames", limit: limits.maxFrames)
            }
            if format == .gif, let counted, counted.frames > frames, frames >= Self.gifDecoderFrames {
                throw ImagingError(file: path, reason: "has \(counted.frames) frames, but libvips's GIF decoder reads only the first \(frames): its variants would stop early; shorten the animation or save it as an animated WebP")
            }
            let total = frame.width.multipliedReportingOverflow(by: frame.height * frames)
            guard !total.overflow, total.partialValue <= limits.maxPixels else {
                throw ImagingError(file: path, reason: "is \(frame.width)x\(frame.height)\(frames > 1 ? " x \(frames) frames" : ""), more than the limit of \(limits.maxPixels) pixels; raise --max-pixels if it is genuine", code: .overLimit)
            }
        }
        if format == .jpeg, limits.failOn != .none,
           let least = bytes.withUnsafeBytes({ JPEGMinimumSize.minimumBytes($0, width: frame.width, height: frame.height) }),
           bytes.count < least {
            throw ImagingError(file: path, reason: "could not be decoded: it claims \(frame.width)x\(frame.height) pixels in \(bytes.count) bytes, where such a JPEG takes at least \(least): the file is truncated or crafted; export it again, or pass --fail-on none to build what it holds", code: .libvips)
        }
        if format == .jpeg, header.jpegMultiscan {
            let scans = bytes.withUnsafeBytes { JPEGSegmentReader.scanCount(in: $0, stoppingAfter: limits.maxScans) }
            guard scans <= limits.maxScans else {
                throw ImagingError(file: path, reason: "is a progressive JPEG of more than \(limits.maxScans) scans (encoders write about 10; each one makes the decoder go over the whole image again); raise --max-scans if it is genuine, or export it again", code: .overLimit)
            }
        }
        self.isShownAsDecoded = frames == 1 && header.orientation == 1 && header.bandFormat == VIPS_FORMAT_UCHAR
            && (header.interpretation == VIPS_INTERPRETATION_sRGB || header.interpretation == VIPS_INTERPRETATION_B_W)
        self.hasICCProfile = header.hasICCProfile
        self.format = format
        self.size = frame
        self.frames = frames
        self.hasAlpha = header.hasAlpha
        self.orientation = header.orientation
        self.failOn = limits.failOn
    }

    /// What the master's header says. The header image itself is not kept: some loaders
    /// (WebP) hold a whole frame buffer for it, and it reads from the bytes.
    private struct Header {
        let loader: String
        let heifCompression: String?
        let uprightSize: PixelSize
        let pages: Int
        let orientation: Int
        let bandFormat: VipsBandFormat
        let interpretation: VipsInterpretation
        let hasICCProfile: Bool
        let hasAlpha: Bool
        let jpegMultiscan: Bool

        init(_ image: VipsImage) {
            loader = image.loader ?? ""
            heifCompression = cvips_get_string(image.pointer, "heif-compression").map { String(cString: $0) }
            uprightSize = image.uprightSize
            pages = image.pages
            orientation = image.orientation
            bandFormat = image.bandFormat
            interpretation = image.interpretation
            hasICCProfile = image.hasICCProfile
            hasAlpha = image.hasAlpha
            jpegMultiscan = cvips_get_int(image.pointer, "jpeg-multiscan", 0) != 0
        }
    }

    /// The header of `bytes`, or the reason it cannot be read: not an image at all, an SVG the
    /// XML parser refuses, or a damaged file.
    private static func readHeader(_ path: String, _ bytes: [UInt8]) throws(ImagingError) -> Header {
        let isSVG = ["svg", "svgz"].contains((path as NSString).pathExtension.lowercased())
        do {
            return try Vips.attributed { () throws(ImagingError) -> Header in
                try bytes.withUnsafeBytes { buffer in
                    Result { () throws(ImagingError) -> Header in
                        guard !buffer.isEmpty, vips_foreign_find_load_buffer(buffer.baseAddress, buffer.count) != nil else {
                            vips_error_clear()
                            throw ImagingError(file: path, reason: "is not an image libvips can read", code: .unknownFormat)
                        }
                        return Header(try VipsImage.make(file: path) { cvips_open_buffer(buffer.baseAddress, buffer.count, $0) })
                    }
                }.get()
            }
        } catch where error.code == .libvips {
            if isSVG { throw SVGHeaderFailure.explain(path, bytes: bytes, libvipsReason: error.reason) }
            let detail = error.reason == Vips.unknownError ? "" : " (\(error.reason))"
            throw ImagingError(file: path, reason: "could not be read\(detail): the file is damaged or truncated; export it again")
        }
    }

    /// Where libvips 8.14's GIF decoder (libnsgif) stops reading frames, without an error.
    /// (It also drops empty frames at the end, so a smaller difference is not a cut.)
    static let gifDecoderFrames = 4097

    /// The refusal of a master of more frames (or TIFF pages) than `limit`.
    private static func tooManyFrames(_ path: String, _ frames: Int, _ noun: String, limit: Int) -> ImagingError {
        ImagingError(file: path, reason: "has \(frames) \(noun), more than the limit of \(limit); raise --max-frames if it is genuine", code: .overLimit)
    }

    /// Decodes every pixel (and every frame of an animation) into memory once: upright, 8-bit,
    /// sRGB (or grey). Every variant is resized from this copy. Damaged or truncated data is an
    /// error, not grey fill.
    ///
    /// A lossy WebP master is decoded to RGB too, though its variants may all be WebP: resized
    /// in libwebp's own YUV 4:2:0 instead, its files took 0.9 % more bytes at the same scores
    /// (2.4 % at its own size; bench/webp-resize-path, docs/performance.md).
    public func decode() throws(ImagingError) -> DecodedPixels {
        do {
            return try Vips.attributed { () throws(ImagingError) -> DecodedPixels in try decodeOnce() }
        } catch where error.code == .libvips {
            let detail = error.reason == Vips.unknownError ? "" : " (\(error.reason))"
            let remedy = failOn == .none ? "export it again" : "export it again, or pass a lower --fail-on than \(failOn.rawValue) to build what it holds"
            throw ImagingError(file: path, reason: "could not be decoded\(detail): the file is damaged or truncated; \(remedy)", code: .libvips)
        }
    }

    private func decodeOnce() throws(ImagingError) -> DecodedPixels {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(ImagingError) -> DecodedPixels in try decodeOnce(buffer) }
        }.get()
    }

    /// Decodes `buffer` (the master's bytes) into memory: nothing made here outlives the call,
    /// so nothing reads the bytes after it.
    private func decodeOnce(_ buffer: UnsafeRawBufferPointer) throws(ImagingError) -> DecodedPixels {
        let path = self.path
        if format == .webp && isDisplayReady {
            // libvips's WebP loader holds two full-size RGBA frames while decoding; this holds
            // only the pixels.
            let decoded = try VipsImage.make(file: path) { cvips_webp_decode_buffer(buffer.baseAddress, buffer.count, $0) }
            return DecodedPixels(path: path, image: try Self.withoutOpaqueAlpha(decoded, file: path), frames: 1, frameSize: size)
        }
        let pages: Int32 = frames > 1 ? -1 : 1
        // Rotating needs random access; everything else streams from the bytes.
        let rotate = frames == 1 && orientation != 1
        var image = try VipsImage.make(file: path) {
            cvips_open_buffer_to_decode(buffer.baseAddress, buffer.count, pages, rotate ? 1 : 0, failOn.vips, format.hasPages ? 1 : 0, $0)
        }
        if rotate {
            let stored = image
            image = try VipsImage.make(file: path) { cvips_autorot(stored.pointer, $0) }
        }
        image = try Self.toDisplayColour(image, file: path)
        let displayable = image
        var decoded = try VipsImage.make(file: path) { cvips_copy_memory(displayable.pointer, $0) }
        if frames == 1 { decoded = try Self.withoutOpaqueAlpha(decoded, file: path) }
        return DecodedPixels(path: path, image: decoded, frames: frames, frameSize: size)
    }

    /// `image` without its alpha band when every pixel is fully opaque, as most PNGs saved "with
    /// transparency" are: the same picture, resized without premultiplying (in 8 bits, not
    /// float) and encoded with a quarter less data. Done in place in the decoded buffer, so only
    /// for an image nothing else refers to.
    private static func withoutOpaqueAlpha(_ image: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        guard image.hasAlpha, cvips_ref_count(image.pointer) == 1 else { return image }
        var opaque: UnsafeMutablePointer<CVips.VipsImage>?
        let status = cvips_drop_opaque_alpha(image.pointer, &opaque)
        if status == 1 { return image }
        guard status == 0, let opaque else { throw ImagingError.libvips(file: file) }
        return VipsImage(adopting: opaque)
    }

    /// 8-bit sRGB, or 8-bit grey, whatever the master was (CMYK, 16-bit, embedded profiles).
    private static func toDisplayColour(_ input: VipsImage, file: String) throws(ImagingError) -> VipsImage {
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
