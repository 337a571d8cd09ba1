import CVips
import DPPXCore
import Foundation

/// Makes an image's placeholder (`ImagePlaceholder`) from the master the build already decoded:
/// one small resize of those pixels (upright, sRGB), no second decode. The result depends only
/// on the pixels, so the same master gives the same bytes.
public enum PlaceholderMaker {
    /// The WebP quality of the preview: it is a smooth 32-pixel image shown blurred, and this
    /// keeps its data URI to a few hundred bytes.
    static let previewQuality: Int32 = 70

    /// The placeholder of `decoded`; an animation (`frames` > 1) gets the colour of its first
    /// frame only, since a still preview of a moving image would show what is not there.
    public static func make(from decoded: DecodedPixels, frames: Int, file: String) throws(ImagingError) -> ImagePlaceholder {
        let small = try smallRGBA(of: decoded, file: file)
        // From every pixel, in linear light: the small copy's cells are averages of sRGB numbers.
        let color = AverageColor.hex(histogram: small.histogram)
        if frames > 1 {
            return ImagePlaceholder(color: color, limitation: "animated master: a colour only (of its first frame), no preview")
        }
        guard color != nil else {
            return ImagePlaceholder(limitation: "every pixel is transparent: nothing to paint")
        }
        let hash = ThumbHash(width: small.size.width, height: small.size.height, rgba: small.rgba)
        let preview = try previewDataURI(hash, file: file)
        return ImagePlaceholder(color: color, thumbHash: hash.base64, preview: preview)
    }

    /// `size` scaled down to fit in ThumbHash's 100x100, at least 1 pixel a side.
    static func fitted(_ size: PixelSize) -> PixelSize {
        let side = ThumbHash.maximumSide
        let longest = max(size.width, size.height)
        guard longest > side else { return size }
        func scaled(_ length: Int) -> Int { max(1, Int((Double(length * side) / Double(longest)).rounded())) }
        return PixelSize(width: scaled(size.width), height: scaled(size.height))
    }

    /// The first frame at most 100 pixels a side, as RGBA, and the levels of all its pixels
    /// (see `AverageColor.hex(histogram:)`).
    private static func smallRGBA(of pixels: DecodedPixels, file: String) throws(ImagingError) -> (size: PixelSize, rgba: [UInt8], histogram: [UInt64]) {
        // Area averages: at these reductions (a 4000-pixel master to 100) what a resize
        // gives, in one pass over the pixels. An animation's first frame is on top.
        let target = fitted(pixels.frameSize)
        let image = pixels.image
        return try Vips.attributed { () throws(ImagingError) -> (PixelSize, [UInt8], [UInt64]) in
            var rgba = [UInt8](repeating: 0, count: target.width * target.height * 4)
            var histogram = [UInt64](repeating: 0, count: 3 * 256)
            let status = rgba.withUnsafeMutableBufferPointer { rgba in
                histogram.withUnsafeMutableBufferPointer {
                    cvips_area_average_rgba(image.pointer, Int32(pixels.frameSize.height), Int32(target.width), Int32(target.height),
                                            rgba.baseAddress, $0.baseAddress)
                }
            }
            guard status == 0 else { throw ImagingError.libvips(file: file, "could not be reduced for its placeholder: ") }
            return (target, rgba, histogram)
        }
    }

    /// The hash's own rendering as a lossy WebP data URI: what a ThumbHash decoder would show.
    private static func previewDataURI(_ hash: ThumbHash, file: String) throws(ImagingError) -> String {
        let rendered = hash.rgba()
        let bytes = try Vips.attributed { () throws(ImagingError) -> [UInt8] in
            let pixels = rendered.rgba
            let image = try VipsImage.make(file: file) { out in
                pixels.withUnsafeBytes { cvips_image_from_rgba($0.baseAddress, Int32(rendered.width), Int32(rendered.height), out) }
            }
            let picture = try image.webpPicture(sharp: false, file: file,
                                                failure: "could not encode its placeholder")
            defer { cvips_webp_input_free(picture) }
            return try Encoder.encodeWebP(picture, quality: previewQuality, effort: 6, file: file,
                                          failure: "could not encode its placeholder")
        }
        return "data:image/webp;base64," + Data(bytes).base64EncodedString()
    }
}
