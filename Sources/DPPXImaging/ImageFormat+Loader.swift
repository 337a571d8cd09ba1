import DPPXCore

extension ImageFormat {
    /// The format a libvips loader reads (`jpegload` -> jpeg, as `VipsImage.loader` names it);
    /// nil for loaders whose formats dppx does not take as masters (matrix, CSV, PPM...).
    init?(loader: String, heifCompression: String?) {
        switch loader {
        case "jpegload": self = .jpeg
        case "pngload": self = .png
        case "webpload": self = .webp
        case "gifload": self = .gif
        case "tiffload": self = .tiff
        case "svgload": self = .svg
        case "heifload": self = heifCompression == "av1" ? .avif : .heic
        default: return nil
        }
    }

    /// Whether libvips's loader for the format reads pages (its "n" option): GIF, WebP, TIFF, HEIF.
    var hasPages: Bool {
        switch self {
        case .gif, .webp, .tiff, .heic, .avif: true
        default: false
        }
    }
}
