/// The settings that decide which files a master becomes.
public struct PlanSettings: Hashable, Codable, Sendable {
    /// Densities to write, e.g. 1, 1.5, 2.
    public var densities: [Density]
    /// The density of a master whose name has no `@Nx` suffix and no rule, used only when
    /// `sourceDensityGiven`.
    public var defaultSourceDensity: Density
    /// True when `defaultSourceDensity` was said (`--source-density`, the project file). When
    /// it was not, a master nothing else describes keeps its own size (see `widthRequest(for:at:)`).
    public var sourceDensityGiven: Bool
    /// Encodings written in addition to the master's own (`webp`, `avif`).
    public var extraFormats: [ImageFormat]
    /// Write densities above the master's own (blurry, but sometimes wanted).
    public var allowUpscale: Bool
    /// Widths every raster master is written at (`--widths`), making all of them fluid; nil
    /// for density variants. A rule's `widths` wins over it.
    public var widths: WidthRequest?
    /// The project file's per-glob rules, in file order (the last match wins, field by field).
    public var rules: [ImageRule]
    /// The widths measuring the site's pages asked of each master (by its path relative to
    /// SRC, `MeasuredLadder`): the ladder of a master nothing states the size of, in place of
    /// the automatic one. Not part of the settings' identity (`CodingKeys`): one master's
    /// measured ladder changing rebuilds that master alone (`BuildCache` records it per master).
    public var measuredWidths: [String: [Int]] = [:]

    private enum CodingKeys: String, CodingKey {
        case densities, defaultSourceDensity, sourceDensityGiven, extraFormats, allowUpscale, widths, rules
    }

    /// The value `--source-density` usually takes (masters exported for 2x screens); a master
    /// is given it only when the user says so.
    public static let defaultSourceDensity = Density(2)

    public init(densities: [Density] = Density.defaultSet, defaultSourceDensity: Density = PlanSettings.defaultSourceDensity,
                sourceDensityGiven: Bool = false, extraFormats: [ImageFormat] = [], allowUpscale: Bool = false,
                widths: WidthRequest? = nil, rules: [ImageRule] = []) {
        self.densities = densities
        self.defaultSourceDensity = defaultSourceDensity
        self.sourceDensityGiven = sourceDensityGiven
        self.extraFormats = extraFormats
        self.allowUpscale = allowUpscale
        self.widths = widths
        self.rules = rules
    }

    /// What the rules say about the master at `path`: for each field, the last matching rule
    /// that sets it.
    public func rule(for path: String) -> ImageRule {
        var merged = ImageRule(match: [])
        for rule in rules where rule.matches(path) { merged.take(rule) }
        return merged
    }

    /// The widths the master `name` at `path` is written at, nil for density variants: a rule's
    /// `widths`, else `--widths`, else the automatic ladder when nothing states its size (no
    /// `@Nx` name, no rule `density` or `width`, no source density): the widths its measured
    /// boxes need when the site was measured, else `auto`. Such a master keeps its own pixel
    /// size under its plain name, as the page it came with expects, and its smaller copies are
    /// offered to pages that size it; nothing makes it denser without being told.
    public func widthRequest(for name: MasterName, at path: String) -> WidthRequest? {
        guard !name.format.isVector else { return nil }
        let rule = rule(for: path)
        if let widths = rule.widths ?? widths { return widths }
        let stated = name.declaredDensity != nil || rule.density != nil || rule.width != nil || sourceDensityGiven
        if stated { return nil }
        return measuredWidths[path].map { .explicit($0) } ?? .auto
    }

    /// Whether a rule leaves the master at `path` out of the build.
    public func excludes(_ path: String) -> Bool { rule(for: path).exclude == true }
}
