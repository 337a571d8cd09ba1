import DPPXCore

/// Encoder settings per output format. Defaults trade a little size for speed the way the
/// field's common tools do (sharp: JPEG 80, WebP 80, AVIF 50).
public struct EncodeSettings: Hashable, Codable, Sendable {
    /// JPEG quality, 1-100.
    public var jpegQuality = 82
    /// Progressive JPEG: renders early on slow connections, often smaller above ~10 KB.
    public var jpegProgressive = true
    /// WebP quality, 1-100.
    public var webpQuality = 80
    /// AVIF quality, 1-100.
    public var avifQuality = 55
    /// AVIF encoder effort, 0 (fastest) to 9.
    public var avifEffort = 2
    /// WebP encoder effort, 0 (fastest) to 6.
    public var webpEffort = 4
    /// PNG zlib compression level, 0-9.
    public var pngCompression = 6
    /// WebP written losslessly for masters that are lossless (PNG) with alpha.
    public var webpLosslessForPNG = false
    /// JPEG XL quality, 1-100, for variants encoded from pixels (`--jxl-quality`); nil: lossless
    /// for lossless (PNG) masters, `defaultLossyJXLQuality` for the others. A JPEG variant's JXL
    /// is always its lossless recompression, whatever this says.
    public var jxlQuality: Int?
    /// JPEG XL encoder effort, 1 (fastest) to 9: libjxl's own default.
    public var jxlEffort = 7

    /// libvips's quality 90, libjxl's distance 1.0: cjxl's default, "visually lossless".
    public static let defaultLossyJXLQuality = 90

    public init() {}
}
