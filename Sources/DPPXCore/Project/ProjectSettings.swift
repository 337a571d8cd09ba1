/// Everything a command can be told, from the project file (`dppx.toml`) or from flags, each
/// field nil when that layer does not say it: `overlaid(by:)` lets flags override the file for
/// one run, and what neither says takes the documented default where it is used.
///
/// One type for both layers keeps `build`, `css`, `html` and `serve --watch` reading the same
/// settings the same way. Each field is one setting of `SettingRegistry`, which declares its
/// key, flag, range, default and help.
public struct ProjectSettings: Hashable, Sendable {
    // Folders.
    /// The folder of masters (`[build] source`).
    public var source: String?
    /// Where variants and the manifest go (`[build] out`).
    public var output: String?

    // Which files a master becomes.
    public var densities: [Density]?
    /// The density of a master whose name has no `@Nx` and no rule gives one.
    public var sourceDensity: Density?
    public var formats: [ImageFormat]?
    public var upscale: Bool?
    /// Widths every raster master is written at, making it fluid (`[build] widths`, `--widths`).
    public var widths: WidthRequest?

    // How they are encoded and how much a build may take.
    public var maxPixels: Int?
    public var maxFrames: Int?
    public var maxScans: Int?
    /// How damaged a master may be and still be built (`[build] fail-on`, `--fail-on`).
    public var failOn: FailOn?
    public var jobs: Int?
    public var jpegQuality: EncoderQuality?
    public var webpQuality: EncoderQuality?
    public var avifQuality: EncoderQuality?
    /// The score `auto` qualities aim at at 1x, interpolated up to 2x (`quality-target`).
    public var qualityTarget: Double?
    /// The score `auto` qualities aim at from 2x, interpolated below (`quality-target-hidpi`).
    public var qualityTargetHiDPI: Double?
    public var webpEffort: Int?
    /// `compare-fixed`: encode searched variants at the fixed default quality too, for the report.
    public var compareFixed: Bool?
    public var avifEffort: Int?
    /// JPEG XL quality for variants encoded from pixels; absent: lossless for PNG masters.
    public var jxlQuality: EncoderQuality?
    public var pngCompression: Int?

    /// The user's copies of dppx's templates.
    public var templates: String?

    // The stylesheet (`dppx css`, `build --css`, `serve --watch --css`).
    /// The stylesheet file `build` and `serve --watch` rewrite (`[css] file`).
    public var stylesheet: String?
    public var classPrefix: String?
    public var box: Bool?
    public var legacy: Bool?
    /// The stylesheet's URLs under this base instead of relative ones (`[css] base-url`).
    public var baseURL: String?
    /// A leading part of image paths left out of class names (`[css] strip`, `--strip`):
    /// `assets/img/` makes `assets/img/hero.jpg` the class `.hero`.
    public var stripPath: String?
    /// What the stylesheet paints in an image's box until it arrives (`[css] placeholder`,
    /// `dppx css --placeholder`).
    public var placeholder: PlaceholderStyle?
    /// The images that get stylesheet rules (`[css] match`); nil for every image.
    public var cssMatch: [PathGlob]?

    // The markup (`dppx html`).
    /// The markup's URLs under this base instead of relative ones (`[html] base-url`).
    public var markupBaseURL: String?
    /// The `sizes` of fluid images no rule gives one (`[html] sizes`, `--sizes`).
    public var sizes: String?
    /// Whether `<img>` gets `width` and `height` (`[html] dimensions`, `--no-dimensions`).
    public var dimensions: Bool?
    /// What the markup paints in an image's box until it arrives (`[html] placeholder`,
    /// `dppx html --placeholder`).
    public var markupPlaceholder: PlaceholderStyle?

    // Page rewriting (`dppx rewrite`, run by `dppx build` after the images, and by `dppx serve`).
    /// The pages and stylesheets to rewrite: paths or patterns (`site/**/*.html`), resolved
    /// against the project file's folder (`[rewrite] pages`).
    public var rewritePages: [String]?
    /// The site's root, under which manifests are found and `/` URLs start (`[rewrite] root`).
    public var rewriteRoot: String?
    /// URLs under this prefix stand for the root (`[rewrite] base-url`).
    public var rewriteBaseURL: String?
    /// `sizes` for fluid images nothing else sizes (`[rewrite] sizes`).
    public var rewriteSizes: String?
    /// Add `width` and `height` to images with neither (`[rewrite] dimensions`).
    public var rewriteDimensions: Bool?
    /// Wrap images with AVIF or WebP files in `<picture>` (`[rewrite] picture`).
    public var rewritePicture: Bool?
    /// Paint each image's placeholder in an inline style of its `<img>` (`[rewrite] placeholder`).
    public var rewritePlaceholder: PlaceholderStyle?
    /// Measure the pages in headless Chromium before rewriting them (`[rewrite] measure`).
    public var rewriteMeasure: Bool?
    /// The Chromium executable measuring runs (`[rewrite] browser`).
    public var rewriteBrowser: String?

    // The server.
    public var serveRoot: String?
    public var host: String?
    public var port: Int?
    public var cacheControl: String?
    public var idleTimeout: Int?

    /// Per-glob rules, in file order: the last one that matches a master wins, field by field.
    public var rules: [ImageRule]

    public init() { rules = [] }

    /// These settings with every field `other` sets taken from `other`; its rules come after
    /// these (and so win).
    public func overlaid(by other: ProjectSettings) -> ProjectSettings {
        var result = self
        for setting in SettingRegistry.all { setting.overlay(other, &result) }
        result.rules += other.rules
        return result
    }

    /// The plan settings for masters: densities, formats, upscaling and rules, with the
    /// defaults for what is not said. A source density said here (flag or file) is intent the
    /// user gave; the default is not.
    public var planSettings: PlanSettings {
        PlanSettings(densities: SettingRegistry.densities.resolved(in: self),
                     defaultSourceDensity: sourceDensity ?? PlanSettings.defaultSourceDensity,
                     sourceDensityGiven: sourceDensity != nil,
                     extraFormats: formats ?? [], allowUpscale: SettingRegistry.upscale.resolved(in: self), widths: widths, rules: rules)
    }

    /// The `sizes` of fluid images: the rules', else the one said here, else the default.
    public var markupSizes: MarkupSizes { MarkupSizes(fallback: sizes, rules: rules) }

    /// The stylesheet options, with the defaults for what is not said.
    public var stylesheetOptions: StylesheetOptions {
        StylesheetOptions(classPrefix: SettingRegistry.classPrefix.resolved(in: self), box: SettingRegistry.box.resolved(in: self),
                          legacy: SettingRegistry.legacy.resolved(in: self),
                          stripPath: stripPath ?? "", match: cssMatch, rules: rules, placeholder: placeholder)
    }
}
