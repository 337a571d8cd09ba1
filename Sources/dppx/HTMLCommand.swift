import ArgumentParser
import DPPXBuild
import DPPXCore

/// `dppx html DIR [PATHS...]`: `<img srcset>` (or `<picture>`) markup to paste into pages.
struct HTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Print <img srcset> markup (or <picture> with AVIF/WebP/JPEG XL sources) for the images in a folder.",
        discussion: """
        Per image: <img src="hero.jpg" srcset="hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x" width="400" height="250" alt="" loading="lazy" decoding="async">, width and height being the CSS size so the page does not jump while it loads. CSS that sets an image's width but not its height (Bootstrap's .w-100, max-width) then stretches it: give the page img { height: auto; }, or use --no-dimensions. A fluid image (built with --widths or a rule's widths) gets srcset="hero-480w.jpg 480w, ..., hero.jpg 1920w" with sizes (its rule's, --sizes, else "auto, 100vw") and its widest file's width and height, for the aspect ratio. When extra formats were built, a <picture> lists <source type="image/avif">, WebP and JPEG XL first, the fewest bytes by the manifest first. Fill in alt yourself.

        --placeholder color|blur paints each image's placeholder (recorded by 'dppx build') in its box until the image arrives, as an inline style: its average colour, or a tiny preview covering the box over that colour. Transparent images show it through: leave them out (PATHS) or use color on a matching page background. --preload PATH also prints, first, the <link rel="preload" as="image"> of that image (the page's largest, for the <head>), matching its <img>, which then loads at once with fetchpriority="high".

        PATHS pick images by master path (hero.jpg, icons/logo@3x.png) or by any variant's path, in the order given; without PATHS every image is printed. DIR is a built folder or a folder of masters, as for 'dppx css'.

        Exit status: 0 written, 1 an image, a PATH or a file failed or --check found the file stale, 2 wrong usage.

        Examples:
          dppx html Public
          dppx html Public hero.jpg icons/logo@3x.png
          dppx html Public --json > images.json
          dppx html Public hero.jpg --placeholder blur --preload hero.jpg
          dppx html Public -o Public/snippets/images.html --base-url /
        """
    )

    @Argument(help: ArgumentHelp("A folder built by 'dppx build', or a folder of master images (default: [build] out in dppx.toml).", valueName: "DIR"))
    var dir: String?

    @Argument(help: ArgumentHelp("Only these images (master or variant paths inside DIR).", valueName: "PATHS"))
    var paths: [String] = []

    @Flag(help: "Print the same data as JSON (src, srcset, width, height, sources, html per image) for other tools.")
    var json = false

    @Option(name: SettingRegistry.sizes.name(), help: SettingRegistry.sizes.argumentHelp)
    var sizes: String?

    @Flag(name: SettingRegistry.dimensions.name(), inversion: .prefixedNo, help: SettingRegistry.dimensions.argumentHelp)
    var dimensions: Bool?

    @OptionGroup var url: BaseURLOption

    @OptionGroup var placeholder: PlaceholderOption

    @Option(help: ArgumentHelp("Also print a <link rel=\"preload\" as=\"image\"> for PATH (the page's largest image, for the <head>), matching its <img>, which then loads at once with fetchpriority=\"high\" instead of lazily.", valueName: "PATH"))
    var preload: String?

    @OptionGroup var render: RenderOptions

    /// Said on a terminal when the markup has `width` and `height`.
    static let dimensionsHint = "width and height reserve each image's box; CSS that sets an image's width but not its height (width: 100%, max-width) then stretches it: add img { height: auto; } to the page's CSS, or write the markup with --no-dimensions"

    func validate() throws {
        if let sizes, let problem = MarkupSizes.problem(sizes, spelled: { "--sizes \"\($0)\"" }) {
            throw ValidationError("--sizes \(problem)")
        }
    }

    func run() throws {
        var flags = ProjectSettings()
        flags.markupBaseURL = url.baseURL
        flags.sizes = sizes
        flags.dimensions = dimensions
        flags.markupPlaceholder = placeholder.placeholder
        let request = try render.request(dir: dir, paths: paths, flags: flags)
        let renderer = MarkupRenderer(templates: try render.loadTemplates(.markup, request))
        let input = try render.loadInput(request)
        let style = request.settings.markupPlaceholder
        try placeholder.check(input, style: style, key: SettingRegistry.markupPlaceholder.qualifiedKey)
        let failedInput = render.reportFailures(of: input)
        var selection = render.select(in: input, request)
        var preloaded: String?
        if let preload {
            let named = render.select(in: input, RenderOptions.Request(dir: request.dir, imageDir: request.imageDir, output: request.output,
                                                                       settings: request.settings, paths: [preload]))
            guard let image = named.images.first else { throw ExitCode(ExitStatus.failure) }
            preloaded = image.source
            // Its <img> is printed with the link, whatever PATHS say.
            if !selection.images.contains(image) { selection.images.insert(image, at: 0) }
        }
        let urls = render.urls(for: input, request, baseURL: request.settings.markupBaseURL)
        let sizes = request.settings.markupSizes
        let dimensions = SettingRegistry.dimensions.resolved(in: request.settings)
        let text = json
            ? renderer.json(selection.images, urls: urls, sizes: sizes, dimensions: dimensions, placeholder: style, preload: preloaded)
            : renderer.html(selection.images, urls: urls, sizes: sizes, dimensions: dimensions, placeholder: style, preload: preloaded)
        if dimensions && !json && !render.check && Terminal.stderrIsTerminal {
            Terminal.note(Self.dimensionsHint)
        }
        try render.deliver(text, input: input, request, command: "html")
        if failedInput || selection.failed { throw ExitCode(ExitStatus.failure) }
    }
}
