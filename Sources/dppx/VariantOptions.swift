import ArgumentParser
import DPPXCore

/// The flags that decide which files a master becomes; `build`, `css`, `html` and `serve --watch`
/// share them so that all agree on names and sizes. Each is nil when not given, so the project
/// file's value (or the default) applies.
struct VariantOptions: ParsableArguments {
    // Parsed with a transform, so a bad list is answered with the parser's own reason
    // ("'0' is not a density: ..."), not only "invalid value".
    @Option(name: SettingRegistry.densities.name(), help: SettingRegistry.densities.argumentHelp,
            transform: { text throws in try Density.parseList(text) })
    var densities: [Density]?

    @Option(name: SettingRegistry.sourceDensity.name(), help: SettingRegistry.sourceDensity.argumentHelp)
    var sourceDensity: Density?

    @Option(name: SettingRegistry.formats.name(), help: SettingRegistry.formats.argumentHelp,
            transform: { text throws in try ImageFormat.parseList(text) })
    var formats: [ImageFormat]?

    @Option(name: SettingRegistry.widths.name(), help: SettingRegistry.widths.argumentHelp,
            transform: { text throws in try WidthRequest(parsing: text) })
    var widths: WidthRequest?

    @Flag(name: SettingRegistry.upscale.name(), inversion: .prefixedNo, help: SettingRegistry.upscale.argumentHelp)
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
