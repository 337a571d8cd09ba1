import ArgumentParser
import DPPXCore

/// `--templates DIR`: every command that writes text from templates takes it.
struct TemplatesOption: ParsableArguments {
    @Option(name: SettingRegistry.templates.name(), help: SettingRegistry.templates.argumentHelp)
    var templates: String?
}
