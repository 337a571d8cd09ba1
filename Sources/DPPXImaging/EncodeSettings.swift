import DPPXCore

/// Encoder settings per output format. The defaults are those `SettingRegistry` declares.
public struct EncodeSettings: Hashable, Codable, Sendable {
    /// JPEG quality, 1-100, or `auto` (see `QualitySearch`).
    public var jpegQuality = EncoderQuality.fixed(EncodeSettings.defaultJPEGQuality)
    /// JPEG and AVIF chroma, when not libvips's choice (4:2:0 below quality 90, 4:4:4 from it):
    /// set by a quality search, which chooses it (see `QualitySearch.scales`). Left out of the
    /// encoded settings when nil, so the settings fingerprint of every other build stays what it
    /// was.
    public var chroma: Chroma?
    /// Progressive JPEG: renders early on slow connections, often smaller above ~10 KB.
    public var jpegProgressive = true
    /// WebP quality, 1-100, or `auto`.
    public var webpQuality = EncoderQuality.fixed(EncodeSettings.defaultWebPQuality)
    /// AVIF quality, 1-100, or `auto`.
    public var avifQuality = EncoderQuality.fixed(EncodeSettings.defaultAVIFQuality)
    /// AVIF encoder effort, 0 (fastest) to 9.
    public var avifEffort = SettingRegistry.avifEffort.fallback
    /// WebP encoder effort (libwebp's method), 0 (fastest) to 6.
    public var webpEffort = SettingRegistry.webpEffort.fallback
    /// PNG zlib compression level, 0-9.
    public var pngCompression = SettingRegistry.pngCompression.fallback
    /// JPEG XL quality, 1-100 or `auto`, for variants encoded from pixels (`--jxl-quality`);
    /// nil: lossless for lossless (PNG) masters, `SettingRegistry.lossyJXLQuality` for the
    /// others. A JPEG variant's JXL is always its lossless recompression, whatever this says.
    public var jxlQuality: EncoderQuality?
    /// JPEG XL encoder effort, 1 (fastest) to 9: libjxl's own default.
    public var jxlEffort = 7

    /// The scores `auto` qualities aim at.
    public var qualityTargets = QualityTargets()
    /// `compare-fixed`: each searched variant is also encoded at the format's default fixed
    /// quality, whose size the manifest records so the saving can be reported. True or nil,
    /// never false: nil is left out of the settings' fingerprint, so builds that do not ask
    /// for it keep theirs.
    public var compareFixed: Bool?
    /// `recompress-png`: a PNG master's own-size output is also re-encoded, and the smaller of
    /// that and the master's own bytes kept (`MasterBuilder.keepsMasterBytes`); without it the
    /// output is the master's bytes, metadata removed. True or nil, as `compareFixed`.
    public var recompressPNG: Bool?

    /// The fixed qualities used where none is said, and what `auto` reports its savings against
    /// (declared in `SettingRegistry`).
    public static let defaultJPEGQuality = SettingRegistry.defaultQuality(for: .jpeg) ?? 0
    public static let defaultWebPQuality = SettingRegistry.defaultQuality(for: .webp) ?? 0
    public static let defaultAVIFQuality = SettingRegistry.defaultQuality(for: .avif) ?? 0

    /// The default fixed quality of `format`, for formats that have one.
    public static func defaultQuality(for format: ImageFormat) -> Int? {
        SettingRegistry.defaultQuality(for: format)
    }

    public init() {}

    /// The quality said for `format` (nil for formats without one, PNG, GIF, TIFF, and for JPEG
    /// XL when none is said).
    public func quality(for format: ImageFormat) -> EncoderQuality? {
        switch format {
        case .jpeg: jpegQuality
        case .webp: webpQuality
        case .avif: avifQuality
        case .jxl: jxlQuality
        default: nil
        }
    }

    /// These settings with `format`'s quality fixed at `value`.
    public func fixing(_ format: ImageFormat, at value: Int) -> EncodeSettings {
        var result = self
        switch format {
        case .jpeg: result.jpegQuality = .fixed(value)
        case .webp: result.webpQuality = .fixed(value)
        case .avif: result.avifQuality = .fixed(value)
        case .jxl: result.jxlQuality = .fixed(value)
        default: break
        }
        return result
    }

    /// The number an encoder is given for `format`: the fixed quality, or the default where
    /// the quality is `auto` (a search passes its own through `fixing`).
    func encoderQuality(for format: ImageFormat) -> Int32 {
        Int32(quality(for: format)?.fixedValue ?? Self.defaultQuality(for: format) ?? 0)
    }
}
