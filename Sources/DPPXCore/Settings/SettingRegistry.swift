/// Every setting dppx takes, each declared once: project-file key and table, flag, what it
/// takes (with its range), default, help and whether `[[rule]]` may say it. `ProjectFile` reads
/// the tables' keys from here, `[[rule]]` the keys marked for rules, `ProjectSettings` checks
/// bounds through `all`, the encoders and limits take their defaults from here, and the command
/// line's flags their names and help.
///
/// A setting declared here is a property of `ProjectSettings` (and, with a `rule:`, of
/// `ImageRule`) by its name here: `settings.webpEffort`. What uses it fills its field from
/// there, as `EncodeSettings.settingFields` does; docs/project-file.md, "Adding a setting".
public enum SettingRegistry {
    // MARK: [build]: folders

    public static var source: Setting<String> {
        Setting("source", in: .build, .path)
    }

    public static var output: Setting<String> {
        Setting("out", in: .build, flag: "out", .path)
    }

    // MARK: [build]: which files a master becomes

    public static var densities: Setting<[Density]> {
        Setting("densities", in: .build, flag: "densities", .densities, default: Density.defaultSet,
                help: "Densities to write, comma-separated (default: \(Density.defaultSet.map(\.description).joined(separator: ","))).",
                valueName: "LIST")
    }

    public static var sourceDensity: Setting<Density> {
        Setting("source-density", in: .build, flag: "source-density", .density,
                help: "Density of masters whose name has no @Nx suffix and no rule, between 0 and 10 (default: none; such masters keep their own size, with smaller copies by width).",
                valueName: "D")
    }

    public static var formats: Setting<[ImageFormat]> {
        Setting("formats", in: .build, flag: "formats", .formats,
                help: "Extra encodings of every variant, comma-separated: webp, avif, jxl, jpeg, png.",
                valueName: "LIST", rule: .build("formats"))
    }

    public static var compareFixed: Setting<Bool> {
        Setting("compare-fixed", in: .build, flag: "compare-fixed", .bool, default: false,
                help: "With an auto quality: also encode each searched variant at the format's default fixed quality, to report the bytes auto saved against it (about a tenth more time).")
    }

    /// Off by default: the re-encode is a full-size PNG encode per master, a third of the CPU of
    /// a fresh build of ukui's wallpapers, for files 6-12 % smaller there
    /// (docs/performance.md, "Where the build's lost time went").
    public static var recompressPNG: Setting<Bool> {
        Setting("recompress-png", in: .build, flag: "recompress-png", .bool, default: false,
                help: "Also re-encode a PNG master's own-size file and keep the smaller of that and the master's own bytes (a full-size encode per PNG master; smaller where the master's alpha band is opaque everywhere or its compression is weak).")
    }

    public static var upscale: Setting<Bool> {
        Setting("upscale", in: .build, flag: "upscale", .bool, default: false,
                help: "Also write densities above a master's own (upscaled, so blurry).")
    }

    public static var widths: Setting<WidthRequest> {
        Setting("widths", in: .build, flag: "widths", .widths,
                help: "Make every raster master fluid: write it at these widths in pixels, comma-separated, or 'auto' for dppx's ladder (up to the master's width), instead of at densities.",
                valueName: "LIST", rule: .build("widths"))
    }

    public static var templates: Setting<String> {
        Setting("templates", in: .build, flag: "templates", .path,
                help: "A folder with your copies of dppx's templates; those it holds replace the defaults.",
                valueName: "DIR")
    }

    public static var failOn: Setting<FailOn> {
        Setting("fail-on", in: .build, flag: "fail-on", .failOn, default: FailOn.default,
                help: "Refuse masters this damaged: \(FailOn.allCases.map(\.rawValue).joined(separator: ", ")) (default: \(FailOn.default.rawValue); warning also refuses the extraneous bytes cameras write).",
                valueName: "LEVEL")
    }

    // MARK: [build]: how variants are encoded

    /// The fixed JPEG, WebP and AVIF qualities trade a little size for speed the way the field's
    /// common tools do (sharp: JPEG 80, WebP 80, AVIF 50); `auto` reports its savings against them.
    public static var jpegQuality: Setting<EncoderQuality> {
        let fallback = 82
        return Setting("quality", in: .build, flag: "quality", .quality(example: 80), default: .fixed(fallback),
                       help: "JPEG quality, 1-100, or auto: per variant, the smallest file that reaches the quality target (default: \(fallback)).",
                       valueName: "Q", rule: .build("jpegQuality"))
    }

    public static var webpQuality: Setting<EncoderQuality> {
        let fallback = 80
        return Setting("webp-quality", in: .build, flag: "webp-quality", .quality(example: 80), default: .fixed(fallback),
                       help: "WebP quality, 1-100, or auto (default: \(fallback)).", valueName: "Q", rule: .build("webpQuality"))
    }

    public static var avifQuality: Setting<EncoderQuality> {
        let fallback = 55
        return Setting("avif-quality", in: .build, flag: "avif-quality", .quality(example: 55), default: .fixed(fallback),
                       help: "AVIF quality, 1-100, or auto (default: \(fallback)).", valueName: "Q", rule: .build("avifQuality"))
    }

    /// The default fixed quality of `format` (JPEG 82, WebP 80, AVIF 55, JPEG XL from pixels
    /// 90), which `auto` counts its savings against; nil for formats without a quality setting.
    public static func defaultQuality(for format: ImageFormat) -> Int? {
        switch format {
        case .jpeg: jpegQuality.fallback.fixedValue
        case .webp: webpQuality.fallback.fixedValue
        case .avif: avifQuality.fallback.fixedValue
        case .jxl: lossyJXLQuality
        default: nil
        }
    }

    public static var qualityTarget: Setting<Double> {
        let fallback = QualityTargets.defaultStandard
        return Setting("quality-target", in: .build, flag: "quality-target", .score(example: Int(fallback)), default: fallback,
                       help: "SSIMULACRA2 score auto qualities aim at for variants drawn at 1x and fluid widths, 0-100; between 1x and 2x the target is interpolated (default: \(Int(fallback)): very high quality).",
                       valueName: "SCORE", rule: .build("qualityTarget"))
    }

    public static var qualityTargetHiDPI: Setting<Double> {
        let fallback = QualityTargets.defaultHiDPI
        let gap = Int(QualityTargets.defaultStandard - fallback)
        return Setting("quality-target-hidpi", in: .build, flag: "quality-target-hidpi", .score(example: Int(fallback)), default: fallback,
                       help: "SSIMULACRA2 score auto qualities aim at for variants drawn at 2x and above, 0-100; between 1x and 2x the target is interpolated (default: \(Int(fallback)), or \(gap) below --quality-target).",
                       valueName: "SCORE", rule: .build("qualityTargetHiDPI"))
    }

    public static var avifEffort: Setting<Int> {
        let fallback = 2
        return Setting("avif-effort", in: .build, flag: "avif-effort", .integer(0...9, example: fallback), default: fallback,
                       help: "AVIF encoder effort, 0 (fast) to 9 (small) (default: \(fallback)).", valueName: "N",
                       rule: .build("avifEffort"))
    }

    /// libwebp's `method`. 6 writes files 2 to 6 % smaller than 4 at the same score, for up to
    /// half as much build time again; 4 stays the default (BENCHMARKS.md, "WebP's other settings").
    public static var webpEffort: Setting<Int> {
        let fallback = 4
        return Setting("webp-effort", in: .build, flag: "webp-effort", .integer(0...6, example: fallback), default: fallback,
                       help: "WebP encoder effort, 0 (fast) to 6 (small) (default: \(fallback)).", valueName: "N",
                       rule: .build("webpEffort"))
    }

    /// Not said: lossless for lossless (PNG) masters, `lossyJXLQuality` for the others.
    public static var jxlQuality: Setting<EncoderQuality> {
        Setting("jxl-quality", in: .build, flag: "jxl-quality", .quality(example: lossyJXLQuality),
                help: "JPEG XL quality, 1-100, or auto, for --formats jxl variants encoded from pixels (default: lossless for PNG masters, \(lossyJXLQuality) for others; a JPEG variant's JXL is always its lossless recompression).",
                valueName: "Q", rule: .build("jxlQuality"))
    }

    /// libvips's quality 90, libjxl's distance 1.0: cjxl's default, "visually lossless".
    public static let lossyJXLQuality = 90

    public static var pngCompression: Setting<Int> {
        let fallback = 6
        return Setting("png-compression", in: .build, flag: "png-compression", .integer(0...9, example: fallback), default: fallback,
                       help: "PNG compression level, 0 (fast) to 9 (small) (default: \(fallback)).", valueName: "N")
    }

    // MARK: [build]: what a build may take

    // The limits that protect the user from a repository's files are `.limit`s: the project
    // file, which comes with the repository, may lower them but not raise them past their
    // default; only the command line raises them (docs/security.md, "What a project file may
    // say").

    /// 100 megapixels (10000 x 10000): four times an 8K screen, so a 4x variant of a
    /// full-width image fits, and the decoded master stays under 400 MB. (libvips's and sharp's
    /// 16384 x 16384 lets a 1 MB PNG of zeros claim a gigabyte.)
    public static var maxPixels: Setting<Int> {
        let fallback = 100_000_000
        return Setting("max-pixels", in: .build, flag: "max-pixels", .limit(1...Int.max, example: fallback, fileMaximum: fallback), default: fallback,
                       help: "Refuse masters with more pixels than this, read from the header (decompression bombs, counting every frame; default: \(fallback)).",
                       valueName: "N")
    }

    /// Over 40 s of animation at 25 frames a second.
    public static var maxFrames: Setting<Int> {
        let fallback = 1000
        return Setting("max-frames", in: .build, flag: "max-frames", .limit(1...Int.max, example: fallback, fileMaximum: fallback), default: fallback,
                       help: "Refuse animations with more frames (or TIFFs with more pages) than this (default: \(fallback)).",
                       valueName: "N")
    }

    /// Ten times what encoders write (libjpeg's and mozjpeg's progressive scripts: 10 scans).
    public static var maxScans: Setting<Int> {
        let fallback = 100
        return Setting("max-scans", in: .build, flag: "max-scans", .limit(1...Int.max, example: fallback, fileMaximum: fallback), default: fallback,
                       help: "Refuse progressive JPEGs with more scans than this (default: \(fallback)).", valueName: "N")
    }

    /// Not said: the number of cores.
    public static var jobs: Setting<Int> {
        Setting("jobs", in: .build, flag: "jobs", .integer(1...256, example: 4),
                help: "Worker threads, and masters held in memory at once (default: the number of cores).", valueName: "N")
    }

    // MARK: [css]

    public static var stylesheet: Setting<String> {
        Setting("file", in: .css, flag: "css", .path,
                help: "Also write the density stylesheet after each build (as 'dppx css OUT -o FILE' would, with the same stylesheet options), rewritten only when it changes.",
                valueName: "FILE")
    }

    public static var classPrefix: Setting<String> {
        let fallback = StylesheetOptions.defaultClassPrefix
        return Setting("prefix", in: .css, flag: "prefix", .classPrefix, default: fallback,
                       help: "Put PREFIX before every class name (default: \(fallback), giving .\(fallback)hero, so no class of the page's own is restyled); --prefix '' gives bare names (.hero).",
                       valueName: "PREFIX")
    }

    public static var stripPath: Setting<String> {
        Setting("strip", in: .css, flag: "strip", .string,
                help: "Leave PATH out of the start of image paths in class names: --strip assets/img names assets/img/hero.jpg .hero (with --prefix, the prefix replaces it).",
                valueName: "PATH")
    }

    public static var box: Setting<Bool> {
        Setting("box", in: .css, flag: "box", .bool, default: true,
                help: "Write width and height of the CSS size (the default); --no-box leaves them out, for elements sized by your layout.")
    }

    public static var legacy: Setting<Bool> {
        Setting("legacy", in: .css, flag: "legacy", .bool, default: false,
                help: "Also write the media-query spellings of very old browsers (min--moz-device-pixel-ratio, -o-min-device-pixel-ratio, dpi).")
    }

    public static var baseURL: Setting<String> {
        Setting("base-url", in: .css, flag: "base-url", .string,
                help: "Put image URLs under URL instead of making them relative, e.g. https://cdn.example.com/img/.", valueName: "URL")
    }

    public static var cssMatch: Setting<[PathGlob]> {
        Setting("match", in: .css, .patterns)
    }

    public static var placeholder: Setting<PlaceholderStyle> {
        Setting("placeholder", in: .css, flag: "placeholder", .placeholder,
                help: "Paint each image's placeholder in its box until the image arrives: its average colour, or blur (a tiny preview covering the box, over that colour). Needs a built folder. Transparent images show it through: leave those out, or use color on a matching page background.",
                valueName: "color|blur")
    }

    // MARK: [html]

    public static var markupBaseURL: Setting<String> {
        Setting("base-url", in: .html, flag: "base-url", .string, help: baseURL.help, valueName: "URL")
    }

    public static var sizes: Setting<String> {
        let fallback = MarkupSizes.defaultValue
        return Setting("sizes", in: .html, flag: "sizes", .sizes, default: fallback,
                       help: "The sizes attribute of fluid images no rule gives one (default: '\(fallback)').", valueName: "SIZES", rule: .render)
    }

    public static var dimensions: Setting<Bool> {
        Setting("dimensions", in: .html, flag: "dimensions", .bool, default: true,
                help: "Write width and height, the CSS size, so the page does not jump while images load (the default). --no-dimensions leaves them out: a page whose CSS sets an image's width but not 'height: auto' stretches it to that height.")
    }

    public static var markupPlaceholder: Setting<PlaceholderStyle> {
        Setting("placeholder", in: .html, flag: "placeholder", .placeholder, help: placeholder.help, valueName: "color|blur")
    }

    // MARK: [serve]

    public static var serveRoot: Setting<String> {
        Setting("root", in: .serve, .path)
    }

    /// Beyond this machine from the project file (`0.0.0.0`), `dppx serve` says so in one line
    /// (`ListenAddress.isLoopback`).
    public static var host: Setting<String> {
        let fallback = ListenAddress.loopback
        return Setting("host", in: .serve, flag: "host", .string, default: fallback,
                       help: "The address to listen on: \(fallback) (this machine, the default) or 0.0.0.0 (every interface).",
                       valueName: "HOST")
    }

    public static var port: Setting<Int> {
        let fallback = 8080
        return Setting("port", in: .serve, flag: "port", .integer(0...65535, example: fallback), default: fallback,
                       help: "The TCP port; 0 picks a free one (default: \(fallback)).", valueName: "PORT")
    }

    public static var cacheControl: Setting<String> {
        Setting("cache-control", in: .serve, flag: "cache-control", .string,
                help: "Cache-Control for files, e.g. \"public, max-age=3600\" (default: no-cache, i.e. revalidate with ETags).",
                valueName: "VALUE")
    }

    public static var idleTimeout: Setting<Int> {
        let fallback = 30
        return Setting("idle-timeout", in: .serve, flag: "idle-timeout", .limit(1...86_400, example: fallback, fileMaximum: fallback), default: fallback,
                       help: "Close a connection that sends no complete request headers, stops sending its request body, or stops reading its answer for this many seconds (default: \(fallback)).",
                       valueName: "SECONDS")
    }

    // MARK: [rewrite]

    public static var rewritePages: Setting<[String]> {
        Setting("pages", in: .rewrite, .pagePatterns)
    }

    public static var rewriteRoot: Setting<String> {
        Setting("root", in: .rewrite, flag: "root", .path,
                help: "The folder the site is served from: manifests are found under it and URLs starting with / begin there (default: [rewrite] root, else [serve] root, else this folder).",
                valueName: "DIR")
    }

    public static var rewriteBaseURL: Setting<String> {
        Setting("base-url", in: .rewrite, flag: "base-url", .string,
                help: "URLs starting with URL stand for the root (pages that name images on a CDN, e.g. https://cdn.example.com/).",
                valueName: "URL")
    }

    public static var rewriteSizes: Setting<String> {
        Setting("sizes", in: .rewrite, flag: "sizes", .sizes,
                help: "The sizes attribute of fluid images nothing else sizes (no sizes or width of their own, no rule).",
                valueName: "SIZES")
    }

    public static var rewriteDimensions: Setting<Bool> {
        Setting("dimensions", in: .rewrite, flag: "dimensions", .bool, default: false,
                help: "Also add width and height (the CSS size) to images that have neither: reserves their box while loading, but stretches an image whose CSS sets only its width.")
    }

    public static var rewritePicture: Setting<Bool> {
        Setting("picture", in: .rewrite, flag: "picture", .bool, default: false,
                help: "Also wrap images that have AVIF or WebP files in a <picture> with a <source> per format: smaller files where the browser reads them, but selectors such as 'a > img' no longer match the image. On measured pages each wrapped image is checked in Chromium, and one whose style or box a wrapper changes gets a srcset only.")
    }

    public static var rewritePlaceholder: Setting<PlaceholderStyle> {
        Setting("placeholder", in: .rewrite, flag: "placeholder", .placeholder,
                help: "Also paint each image's placeholder (recorded by 'dppx build') in its box until it arrives, as an inline style the page's CSS can override: its average colour, or blur (a tiny preview covering the box, over that colour). An <img> with a style of its own is left alone and reported.",
                valueName: "color|blur")
    }

    public static var rewriteMeasure: Setting<Bool> {
        Setting("measure", in: .rewrite, flag: "measure", .bool, default: true,
                help: "Measure the pages in headless Chromium first, so each fluid image gets the exact sizes of its boxes (and 'dppx build' the widths they need), and check the rewrite moved no box; --no-measure, or no Chromium on the machine, rewrites from what the pages state only.")
    }

    public static var rewriteBrowser: Setting<String> {
        Setting("browser", in: .rewrite, flag: "browser", .commandLineOnly(instead: "Pass --browser PATH, or set \(browserVariable)=PATH in your environment"),
                help: "The Chromium executable to measure pages with (default: $\(browserVariable), else chromium, chromium-browser or google-chrome on PATH). Never read from dppx.toml: which program runs is yours to choose, not a repository's.",
                valueName: "PATH")
    }

    /// The environment variable naming the browser when `--browser` does not.
    public static let browserVariable = "DPPX_BROWSER"

    // MARK: [[rule]] only

    /// The settings only `[[rule]]` has: `rule.density` reads `Rule.density`.
    public enum Rule {
        public static var density: Setting<Density> {
            Setting("density", in: .rule, .density, rule: .build("density"))
        }

        public static var width: Setting<Int> {
            Setting("width", in: .rule, .integer(1...WidthRequest.maximumWidth, example: 300), rule: .build("width"))
        }

        public static var exclude: Setting<Bool> {
            Setting("exclude", in: .rule, .bool, rule: .build("exclude"))
        }

        public static var css: Setting<Bool> {
            Setting("css", in: .rule, .bool, rule: .render)
        }

        public static var cover: Setting<CoverBox> {
            Setting("cover", in: .rule, .cover, rule: .render)
        }
    }

    // MARK: All of them

    /// Every setting, in the order the project file's error messages list keys and bounds are
    /// checked.
    static let all: [AnySetting] = [
        source.erased, output.erased, densities.erased, sourceDensity.erased, formats.erased, upscale.erased, compareFixed.erased, recompressPNG.erased, widths.erased,
        templates.erased, failOn.erased,
        jpegQuality.erased, webpQuality.erased, avifQuality.erased, qualityTarget.erased, qualityTargetHiDPI.erased,
        maxPixels.erased, maxFrames.erased, maxScans.erased, jobs.erased, webpEffort.erased, avifEffort.erased, jxlQuality.erased, pngCompression.erased,
        stylesheet.erased, classPrefix.erased, stripPath.erased, box.erased, legacy.erased, baseURL.erased, cssMatch.erased, placeholder.erased,
        markupBaseURL.erased, sizes.erased, dimensions.erased, markupPlaceholder.erased,
        serveRoot.erased, host.erased, port.erased, cacheControl.erased, idleTimeout.erased,
        rewritePages.erased, rewriteRoot.erased, rewriteBaseURL.erased, rewriteSizes.erased, rewriteDimensions.erased, rewritePicture.erased,
        rewritePlaceholder.erased, rewriteMeasure.erased, rewriteBrowser.erased,
        Rule.density.erased, Rule.width.erased, Rule.exclude.erased, Rule.css.erased, Rule.cover.erased,
    ]

    /// The keys of `table`, in declaration order; for `.rule`, every key a rule may hold (its
    /// `match` aside).
    public static func keys(of table: ProjectTable) -> [String] {
        all.filter { table == .rule ? $0.inRules || $0.table == .rule : $0.table == table }.map(\.key)
    }
}
