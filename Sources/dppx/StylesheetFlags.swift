import ArgumentParser
import DPPXCore

/// How the density stylesheet is written: `dppx css` takes these, and so do `build --css` and
/// `serve --watch --css`, so development writes exactly what the production command writes.
struct StylesheetFlags: ParsableArguments {
    @Option(help: ArgumentHelp("Put PREFIX before every class name (default: img-, giving .img-hero, so no class of the page's own is restyled); --prefix '' gives bare names (.hero).", valueName: "PREFIX"))
    var prefix: String?

    @Option(help: ArgumentHelp("Leave PATH out of the start of image paths in class names: --strip assets/img names assets/img/hero.jpg .hero (with --prefix, the prefix replaces it).", valueName: "PATH"))
    var strip: String?

    @Flag(inversion: .prefixedNo, help: "Write width and height of the CSS size (the default); --no-box leaves them out, for elements sized by your layout.")
    var box: Bool?

    @Flag(inversion: .prefixedNo, help: "Also write the media-query spellings of very old browsers (min--moz-device-pixel-ratio, -o-min-device-pixel-ratio, dpi).")
    var legacy: Bool?

    @OptionGroup var url: BaseURLOption

    @OptionGroup var placeholder: PlaceholderOption

    func validate() throws {
        guard let prefix else { return }
        if let problem = StylesheetOptions.classPrefixProblem(prefix, spelled: { "--prefix \($0)" }) { throw ValidationError("--prefix \(problem)") }
    }

    /// What these flags say.
    var settings: ProjectSettings {
        var settings = ProjectSettings()
        settings.classPrefix = prefix
        settings.stripPath = strip
        settings.box = box
        settings.legacy = legacy
        settings.baseURL = url.baseURL
        settings.placeholder = placeholder.placeholder
        return settings
    }
}
