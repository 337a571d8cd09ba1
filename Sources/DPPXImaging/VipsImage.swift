import CVips
import DPPXCore

/// A libvips image that releases itself: every operation returns a new `VipsImage`.
///
/// libvips images are immutable lazy pipelines, so one may be read from several threads.
public final class VipsImage: @unchecked Sendable {
    private let storage: UnsafeMutablePointer<CVips.VipsImage>

    init(_ pointer: UnsafeMutablePointer<CVips.VipsImage>) { self.storage = pointer }

    /// Takes ownership of an image a libvips call returned (one reference, released on deinit).
    public convenience init(adopting pointer: UnsafeMutablePointer<CVips.VipsImage>) { self.init(pointer) }

    /// The underlying libvips image, for callers of CVips; valid while `self` lives.
    public var pointer: UnsafeMutablePointer<CVips.VipsImage> { storage }

    deinit { cvips_unref(storage) }

    /// Runs a libvips call that writes one output image; turns failure into an `ImagingError`.
    static func make(file: String?, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32)
        throws(ImagingError) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let status = body(&out)
        guard status == 0, let out else {
            if let out { cvips_unref(out) }
            throw ImagingError.libvips(file: file)
        }
        return VipsImage(out)
    }

    public var width: Int { Int(vips_image_get_width(pointer)) }
    /// The height of the whole image; for animations, of every frame stacked.
    public var fullHeight: Int { Int(vips_image_get_height(pointer)) }
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }
    public var interpretation: VipsInterpretation { vips_image_get_interpretation(pointer) }
    public var bandFormat: VipsBandFormat { vips_image_get_format(pointer) }
    /// Frames in the image: more than 1 for an animation loaded with all pages.
    public var pages: Int { max(1, Int(cvips_get_int(pointer, "n-pages", 1))) }
    /// Height of one frame.
    public var pageHeight: Int { Int(vips_image_get_page_height(pointer)) }
    /// EXIF orientation, 1 (upright) when absent.
    public var orientation: Int { Int(cvips_get_int(pointer, "orientation", 1)) }
    /// The libvips loader that read it (`jpegload`, `pngload`...), nil for computed images;
    /// without the `_buffer` or `_source` of the variant that read bytes in memory.
    public var loader: String? {
        cvips_get_string(pointer, "vips-loader").map { String(String(cString: $0).prefix { $0 != "_" }) }
    }
    public var hasICCProfile: Bool { cvips_has_field(pointer, "icc-profile-data") != 0 }

    /// The size of one frame, upright (EXIF orientations 5-8 swap width and height).
    public var uprightSize: PixelSize {
        let frame = PixelSize(width: width, height: pageHeight)
        return (5...8).contains(orientation) ? PixelSize(width: frame.height, height: frame.width) : frame
    }
}
