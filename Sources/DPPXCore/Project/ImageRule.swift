/// A `[[rule]]` of the project file: what is true of the masters its patterns match. Rules
/// apply in file order and the last rule that matches a master and sets a field wins for that
/// field, so a general rule first and exceptions after read naturally.
///
/// Which keys a rule may hold is declared in `SettingRegistry` (a setting with a rule field).
///
/// The fields are the image's intent: a `density` or a display `width` given here is intent
/// the server may act on (see `SizeIntent`).
public struct ImageRule: Hashable, Sendable, Codable {
    /// Masters matched (any of them).
    public var match: [PathGlob]
    /// The master's own density (`density = 1` for photos exported at the size they are shown).
    public var density: Density?
    /// The width the image is shown at, in CSS px: the master's density follows from it.
    public var width: Int?
    /// Makes these masters fluid: written at these widths (or the automatic ladder) for a
    /// page that sizes them, instead of at densities of one CSS size.
    public var widths: WidthRequest?
    /// The `sizes` attribute `dppx html` writes for these fluid masters (`(min-width: 768px) 50vw, 100vw`).
    /// Not part of what a build writes, so it is left out of the build's settings fingerprint.
    public var sizes: String? = nil
    /// Extra encodings for these masters, replacing the build's.
    public var formats: [ImageFormat]?
    public var jpegQuality: EncoderQuality?
    public var webpQuality: EncoderQuality?
    public var avifQuality: EncoderQuality?
    /// The scores `auto` qualities aim at for these masters (at 1x and from 2x, interpolated between).
    public var qualityTarget: Double? = nil
    public var qualityTargetHiDPI: Double? = nil
    /// JPEG XL quality for these masters' variants encoded from pixels (`jxl-quality`).
    public var jxlQuality: EncoderQuality? = nil
    /// Encoder efforts for these masters (`webp-effort`, `avif-effort`): more time for fewer
    /// bytes where it pays, such as a site's few large hero images.
    public var webpEffort: Int? = nil
    public var avifEffort: Int? = nil
    /// Leave these masters out of the build, the stylesheet and the markup.
    public var exclude: Bool?
    /// Whether these masters get stylesheet rules (`css = false` for images only ever shown
    /// with `<img>`). Stylesheet only: left out of the build's settings fingerprint.
    public var css: Bool? = nil
    /// The box these fluid backgrounds cover (`cover = "100vw 100vh"`). Stylesheet only: left
    /// out of the build's settings fingerprint.
    public var cover: CoverBox? = nil

    public init(match: [PathGlob], density: Density? = nil, width: Int? = nil, widths: WidthRequest? = nil, sizes: String? = nil, formats: [ImageFormat]? = nil,
                jpegQuality: EncoderQuality? = nil, webpQuality: EncoderQuality? = nil, avifQuality: EncoderQuality? = nil, exclude: Bool? = nil) {
        self.match = match
        self.density = density
        self.width = width
        self.widths = widths
        self.sizes = sizes
        self.formats = formats
        self.jpegQuality = jpegQuality
        self.webpQuality = webpQuality
        self.avifQuality = avifQuality
        self.exclude = exclude
    }

    private enum CodingKeys: String, CodingKey {
        case match, density, width, widths, formats, jpegQuality, webpQuality, avifQuality, qualityTarget, qualityTargetHiDPI, jxlQuality, webpEffort,
             avifEffort, exclude
    }

    /// Whether the rule applies to the master at `path`.
    public func matches(_ path: String) -> Bool { match.contains { $0.matches(path) } }
}
