import ArgumentParser
import DPPXBuild
import DPPXCore

/// `dppx css DIR`: a stylesheet with a class per image whose background is the right density
/// variant for the screen.
struct CSSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "css",
        abstract: "Print density media-query CSS for the images in a built folder or a folder of masters.",
        discussion: """
        Each image gets a class named after its path (hero.jpg -> .hero, icons/logo@3x.png ->
        .icons-logo) with its 1x file as background-image, background-size set to its CSS size,
        and width and height of that size. @media blocks, one per density in ascending order,
        swap in the denser files; with extra formats (build --formats webp,avif) a later
        image-set() picks AVIF or WebP where the browser supports it. SVGs get one rule.

        DIR is a folder built by 'dppx build' (its dppx-manifest.json is read) or a folder of
        masters (only image headers are read, with the same --densities/--formats/--source-density
        a build would use), so a Makefile can write the CSS while the images build.

        Exit status: 0 written, 1 an image or file failed or --check found the file stale,
        2 wrong usage.

        Examples:
          dppx css Public                                   # print to stdout, URLs relative to Public
          dppx css Public -o Public/css/images.css          # URLs relative to Public/css
          dppx css src/img --image-dir public/img -o public/css/images.css --depfile build/images.css.d
          dppx css Public --prefix img- --no-box --base-url https://cdn.example.com/
          dppx css Public -o Public/css/images.css --check  # in CI: exit 1 if it is out of date
        """
    )

    @Argument(help: ArgumentHelp("A folder built by 'dppx build', or a folder of master images.", valueName: "DIR"))
    var dir: String

    @Option(help: ArgumentHelp("Put PREFIX before every class name: --prefix img- gives .img-hero.", valueName: "PREFIX"))
    var prefix: String = ""

    @Flag(name: .customLong("no-box"), help: "Leave out width and height (the element is sized by your layout).")
    var noBox = false

    @Flag(help: "Also write the media-query spellings of very old browsers (min--moz-device-pixel-ratio, -o-min-device-pixel-ratio, dpi).")
    var legacy = false

    @OptionGroup var render: RenderOptions

    func validate() throws {
        if prefix.hasPrefix(".") {
            throw ValidationError("--prefix goes before the class name, without the dot: --prefix \(prefix.dropFirst()) gives .\(prefix.dropFirst())hero")
        }
        if prefix.contains(where: \.isWhitespace) {
            throw ValidationError("--prefix cannot hold spaces (a class attribute splits on them); got '\(prefix)', try --prefix \(prefix.filter { !$0.isWhitespace })")
        }
    }

    func run() throws {
        let renderer = StylesheetRenderer(templates: try render.loadTemplates(.stylesheet))
        let input = try render.loadInput(dir)
        let failed = render.reportFailures(of: input)
        let css: String
        do {
            css = try renderer.render(manifest: input.manifest, urls: render.urls(for: input),
                                      options: StylesheetOptions(classPrefix: prefix, box: !noBox, legacy: legacy))
        } catch {
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
        try render.deliver(css, input: input, command: "css")
        if failed { throw ExitCode(ExitStatus.failure) }
    }
}
