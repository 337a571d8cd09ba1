import CVips
import DPPXCore

/// Encodes a resized image into a file's bytes, metadata stripped.
public enum Encoder {
    /// The encoded bytes of `image` in `format`. `file` names the master in errors.
    public static func encode(_ image: VipsImage, as format: ImageFormat, settings: EncodeSettings,
                              losslessSource: Bool, file: String) throws(ImagingError) -> [UInt8] {
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        let status: Int32
        switch format {
        case .jpeg:
            // JPEG has no alpha: flatten onto white rather than let transparent pixels go black.
            let flat = try flattened(image, file: file)
            status = cvips_jpegsave(flat.pointer, Int32(settings.jpegQuality), settings.jpegProgressive ? 1 : 0, &buffer, &length)
        case .png:
            status = cvips_pngsave(image.pointer, Int32(settings.pngCompression), 7, &buffer, &length)
        case .webp:
            let lossless: Int32 = losslessSource && settings.webpLosslessForPNG ? 1 : 0
            if image.bandFormat == VIPS_FORMAT_UCHAR && (image.bands == 3 || image.bands == 4) && image.pageHeight == image.fullHeight {
                // libwebp straight from the pixels: the bitstream libvips's saver writes, without
                // its copy of the whole image and without the EXIF chunk it adds even when stripping.
                status = cvips_webp_encode(image.pointer, Int32(settings.webpQuality), lossless, Int32(settings.webpEffort), &buffer, &length)
            } else {
                status = cvips_webpsave(image.pointer, Int32(settings.webpQuality), lossless, Int32(settings.webpEffort), &buffer, &length)
            }
        case .avif:
            status = cvips_avifsave(image.pointer, Int32(settings.avifQuality), 0, Int32(settings.avifEffort), &buffer, &length)
        case .gif:
            status = cvips_gifsave(image.pointer, 7, &buffer, &length)
        case .tiff:
            status = cvips_tiffsave(image.pointer, &buffer, &length)
        case .heic, .svg:
            throw ImagingError(file: file, reason: "dppx cannot write \(format.rawValue) variants; write JPEG, PNG, WebP or AVIF")
        }
        guard status == 0, let buffer else {
            throw ImagingError(file: file, reason: "could not be encoded as \(format.rawValue): \(Vips.takeErrorText())")
        }
        defer { g_free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    private static func flattened(_ image: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        guard image.hasAlpha else { return image }
        return try VipsImage.make(file: file) { cvips_flatten_white(image.pointer, $0) }
    }
}
