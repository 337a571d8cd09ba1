import ArgumentParser
import DPPXCore

/// The flags that decide which files a master becomes; `build`, `css`, `html` and `serve --watch`
/// share them so that all agree on names and sizes. Each is nil when not given, so the project
/// file's value (or the default) applies.
struct VariantOptions: ParsableArguments {
    // Parsed with a transform, so a bad list is answered with the parser's own reason
    // ("'0' is not a density: ..."), not only "invalid value".
    @Option(help: ArgumentHelp("Densities to write, comma-separated (default: 1,1.5,2).", valueName: "LIST"),
            transform: { text throws in try Density.parseList(text) })
    var densities: [Density]?

    @Option(help: ArgumentHelp("Density of masters whose name has no @Nx suffix and no rule, between 0 and 10 (default: none; such masters keep their own size, with smaller copies by width).", valueName: "D"))
    var sourceDensity: Density?

    @Option(help: ArgumentHelp("Extra encodings of every variant, comma-separated: webp, avif, jxl, jpeg, png.", valueName: "LIST"),
            transform: { text throws in try ImageFormat.parseList(text) })
    var formats: [ImageFormat]?

    @Option(help: ArgumentHelp("Make every raster master fluid: write it at these widths in pixels, comma-separated, or 'auto' for dppx's ladder (up to the master's width), instead of at densities.", valueName: "LIST"),
            transform: { text throws in try WidthRequest(parsing: text) })
    var widths: WidthRequest?

    @Flag(inversion: .prefixedNo, help: "Also write densities above a master's own (upscaled, so blurry).")
    var upscale: Bool?

    /// What these flags say.
    var settings: ProjectSettings {
        var settings = ProjectSettings()
        settings.densities = densities
        settings.sourceDensity = sourceDensity
        settings.formats = formats
        settings.upscale = upscale
        settings.widths = widths
        return settings
    }
}
