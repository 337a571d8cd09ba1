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

    public init() {}
}
