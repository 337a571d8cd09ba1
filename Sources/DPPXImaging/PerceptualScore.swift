import CVips
import DPPXCore

/// How close an encoded file looks to the pixels it was made from, on SSIMULACRA2's scale:
/// 100 identical, 90 visually lossless, 80 very high quality (no difference side by side at
/// 1:1), 70 high, 50 medium. Computed in-process (CVips's `ssimulacra2.c`) on pixels already
/// in memory.
public enum PerceptualScore {
    /// Images narrower or lower than this have no scale to compare (they would score 100).
    public static let minimumSide = 8

    /// The score of `distorted` against `reference`, two images of the same size. `file` names
    /// the master in errors. `threads` 2 scores the two halves of a tall enough image at once,
    /// to the same score.
    public static func ssimulacra2(reference: VipsImage, distorted: VipsImage, threads: Int = 1, file: String) throws(ImagingError) -> Double {
        guard reference.width == distorted.width, reference.fullHeight == distorted.fullHeight else {
            throw ImagingError(file: file, reason: "cannot be scored: the encoded file is \(distorted.width)x\(distorted.fullHeight), its pixels \(reference.width)x\(reference.fullHeight)")
        }
        return try Vips.attributed { () throws(ImagingError) -> Double in
            var one = try eightBitRGB(reference, file: file)
            var two = try eightBitRGB(distorted, file: file)
            // A JPEG has no alpha: its pixels were flattened onto white, and so is the reference.
            if one.hasAlpha != two.hasAlpha {
                if one.hasAlpha { one = try flattened(one, file: file) } else { two = try flattened(two, file: file) }
            }
            let bands = one.bands
            // Pixels in memory (rendered now if `one` or `two` is a conversion), read in place.
            guard let onePixels = vips_image_get_data(one.pointer) else { throw ImagingError.libvips(file: file, "cannot be scored: ") }
            guard let twoPixels = vips_image_get_data(two.pointer) else { throw ImagingError.libvips(file: file, "cannot be scored: ") }
            var score = 0.0
            guard cvips_ssimulacra2(onePixels.assumingMemoryBound(to: UInt8.self), twoPixels.assumingMemoryBound(to: UInt8.self),
                                    Int32(one.width), Int32(one.fullHeight), Int32(bands), Int32(threads), &score) == 0 else {
                throw ImagingError(file: file, reason: "cannot be scored: out of memory")
            }
            return score
        }
    }

    /// The score of the file `bytes` (any format libvips reads) against `reference`.
    public static func ssimulacra2(reference: VipsImage, encoded bytes: [UInt8], threads: Int = 1, file: String) throws(ImagingError) -> Double {
        let decoded = try Vips.attributed { () throws(ImagingError) -> VipsImage in
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(ImagingError) -> VipsImage in
                    // A still WebP straight from libwebp: libvips's loader holds two frames of
                    // its own besides (2 x 67 MB for 4096x4096), the same pixels.
                    if RIFFChunkReader.webpFrameCount(in: buffer) == 1 {
                        return try VipsImage.make(file: file) { cvips_webp_decode_buffer(buffer.baseAddress, buffer.count, $0) }
                    }
                    let lazy = try VipsImage.make(file: file) { cvips_open_buffer(buffer.baseAddress, buffer.count, $0) }
                    // Decoded now, while the bytes are still there.
                    return try VipsImage.make(file: file) { cvips_copy_memory(lazy.pointer, $0) }
                }
            }
            return try result.get()
        }
        return try ssimulacra2(reference: reference, distorted: decoded, threads: threads, file: file)
    }

    /// 8-bit sRGB with 3 bands, or 4 with alpha.
    private static func eightBitRGB(_ image: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        var image = image
        if image.bands < 3 || image.bandFormat != VIPS_FORMAT_UCHAR || image.interpretation != VIPS_INTERPRETATION_sRGB {
            let source = image
            image = try VipsImage.make(file: file) { cvips_colourspace(source.pointer, VIPS_INTERPRETATION_sRGB, $0) }
        }
        if image.bandFormat != VIPS_FORMAT_UCHAR {
            let source = image
            image = try VipsImage.make(file: file) { cvips_cast(source.pointer, VIPS_FORMAT_UCHAR, $0) }
        }
        guard image.bands == 3 || image.bands == 4 else {
            throw ImagingError(file: file, reason: "cannot be scored: its pixels have \(image.bands) bands (3 or 4 are scored)")
        }
        return image
    }

    private static func flattened(_ image: VipsImage, file: String) throws(ImagingError) -> VipsImage {
        try VipsImage.make(file: file) { cvips_flatten_white(image.pointer, $0) }
    }
}
