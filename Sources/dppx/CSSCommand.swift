import ArgumentParser
import DPPXBuild
import DPPXCore

/// `dppx css DIR [PATHS...]`: a stylesheet with a class per image whose background is the right
/// density variant for the screen.
struct CSSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "css",
        abstract: "Print density media-query CSS for the images in a built folder or a folder of masters.",
        discussion: """
        Each image gets a class named after its path behind the prefix img- (hero.jpg -> .img-hero, icons/logo@3x.png -> .img-icons-logo; --prefix '' for bare names) with its 1x file as background-image, background-size set to its CSS size, and width and height of that size. @media blocks, one per density in ascending order, swap in the denser files; with extra formats (build --formats webp,avif) a later image-set() picks AVIF, WebP or JPEG XL (--formats jxl) where the browser supports it, the fewest bytes first. SVGs get one rule. The project file chooses which images get rules: [css] match = ["backgrounds/**"], or css = false in a [[rule]] for images only ever shown with <img>; PATHS always get theirs. A fluid background's rule may give the box it covers (cover = "100vw 100vh"): its queries then also look at the viewport's height.

        DIR is a folder built by 'dppx build' (its dppx-manifest.json is read) or a folder of masters (only image headers are read, with the same --densities/--formats/--source-density a build would use), so a Makefile can write the CSS while the images build. PATHS limit the stylesheet to those images (master or variant paths), e.g. the images of one page.

        --placeholder color|blur also paints each image's placeholder (recorded by 'dppx build') beneath its backgrounds until they arrive: background-color, and for blur a tiny preview as a second layer covering the box. It needs a built DIR.

        Exit status: 0 written, 1 an image, a PATH or a file failed or --check found the file stale, 2 wrong usage.

        Examples:
          dppx css Public                          # stdout; URLs relative to Public
          dppx css Public -o Public/css/images.css # URLs relative to Public/css
          dppx css Public hero.jpg -o Public/css/home.css    # hero.jpg only
          dppx css src/img --image-dir public/img -o public/css/images.css
          dppx css Public --prefix '' --no-box --base-url https://cdn.example.com/
          dppx css Public -o Public/css/images.css --check   # CI: exit 1 if stale
          dppx css                                 # as dppx.toml says
        """
    )

    @Argument(help: ArgumentHelp("A folder built by 'dppx build', or a folder of master images (default: [build] out in dppx.toml, or its masters before they are built; the output is then [css] file).", valueName: "DIR"))
    var dir: String?

    @Argument(help: ArgumentHelp("Only these images (master or variant paths inside DIR).", valueName: "PATHS"))
    var paths: [String] = []

    @OptionGroup(title: "Stylesheet")
    var stylesheet: StylesheetFlags

    @OptionGroup var render: RenderOptions

    func run() throws {
        let request = try render.request(dir: dir, paths: paths, flags: stylesheet.settings, defaultOutput: \.stylesheet)
        let settings = request.settings
        let renderer = StylesheetRenderer(templates: try render.loadTemplates(.stylesheet, request))
        let input = try render.loadInput(request)
        try stylesheet.placeholder.check(input, style: settings.placeholder, key: SettingRegistry.placeholder.qualifiedKey)
        let failedInput = render.reportFailures(of: input)
        let selection = render.select(in: input, request)
        let css: String
        do {
            css = try renderer.render(manifest: Manifest(images: selection.images),
                                      urls: render.urls(for: input, request, baseURL: settings.baseURL),
                                      // Images named one by one get their rules whatever the project selects.
                                      options: request.paths.isEmpty ? settings.stylesheetOptions : settings.stylesheetOptions.includingEveryImage)
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
        try render.deliver(css, input: input, request, command: "css")
        if failedInput || selection.failed { throw ExitCode(ExitStatus.failure) }
    }
}
