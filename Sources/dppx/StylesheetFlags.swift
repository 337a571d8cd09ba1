import ArgumentParser
import DPPXCore

/// How the density stylesheet is written: `dppx css` takes these, and so do `build --css` and
/// `serve --watch --css`, so development writes exactly what the production command writes.
struct StylesheetFlags: ParsableArguments {
    @Option(name: SettingRegistry.classPrefix.name(), help: SettingRegistry.classPrefix.argumentHelp)
    var prefix: String?

    @Option(name: SettingRegistry.stripPath.name(), help: SettingRegistry.stripPath.argumentHelp)
    var strip: String?

    @Flag(name: SettingRegistry.box.name(), inversion: .prefixedNo, help: SettingRegistry.box.argumentHelp)
    var box: Bool?

    @Flag(name: SettingRegistry.legacy.name(), inversion: .prefixedNo, help: SettingRegistry.legacy.argumentHelp)
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
