import ArgumentParser
import DPPXBuild
import DPPXCore

/// `dppx html DIR [PATHS...]`: `<img srcset>` (or `<picture>`) markup to paste into pages.
struct HTMLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "html",
        abstract: "Print <img srcset> markup (or <picture> with AVIF/WebP sources) for the images in a folder.",
        discussion: """
        Per image: <img src="hero.jpg" srcset="hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x"
        width="400" height="250" alt="" loading="lazy" decoding="async">, width and height being
        the CSS size so the page does not jump while it loads. When extra formats were built,
        a <picture> lists <source type="image/avif"> and WebP first. Fill in alt yourself.

        PATHS pick images by master path (hero.jpg, icons/logo@3x.png) or by any variant's path,
        in the order given; without PATHS every image is printed. DIR is a built folder or a
        folder of masters, as for 'dppx css'.

        Exit status: 0 written, 1 an image, a PATH or a file failed or --check found the file
        stale, 2 wrong usage.

        Examples:
          dppx html Public
          dppx html Public hero.jpg icons/logo@3x.png
          dppx html Public --json > images.json
          dppx html Public -o Public/snippets/images.html --base-url /
        """
    )

    @Argument(help: ArgumentHelp("A folder built by 'dppx build', or a folder of master images.", valueName: "DIR"))
    var dir: String

    @Argument(help: ArgumentHelp("Only these images (master or variant paths inside DIR).", valueName: "PATHS"))
    var paths: [String] = []

    @Flag(help: "Print the same data as JSON (src, srcset, width, height, sources, html per image) for other tools.")
    var json = false

    @OptionGroup var render: RenderOptions

    func run() throws {
        let renderer = MarkupRenderer(templates: try render.loadTemplates(.markup))
        let input = try render.loadInput(dir)
        var failed = render.reportFailures(of: input)
        var images = input.manifest.images
        if !paths.isEmpty {
            images = []
            for path in paths {
                guard let image = find(path, in: input.manifest) else {
                    Terminal.error("\(path): no such image in \(dir); give a master path such as \(input.manifest.images.first?.source ?? "hero.jpg") or a variant's path")
                    failed = true
                    continue
                }
                if !images.contains(image) { images.append(image) }
            }
        }
        let urls = render.urls(for: input)
        let text = json ? renderer.json(images, urls: urls) : renderer.html(images, urls: urls)
        try render.deliver(text, input: input, command: "html")
        if failed { throw ExitCode(ExitStatus.failure) }
    }

    /// The image `path` names: its master path or a variant's path, relative to DIR, or
    /// prefixed with DIR as a shell completes it.
    private func find(_ path: String, in manifest: Manifest) -> Manifest.Image? {
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        let folder = dir.hasSuffix("/") ? dir : dir + "/"
        if relative.hasPrefix(folder) { relative = relative.dropFirst(folder.count) }
        let name = String(relative)
        return manifest.images.first { $0.source == name } ?? manifest.image(containing: name)
    }
}
