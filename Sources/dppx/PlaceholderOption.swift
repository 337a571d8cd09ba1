import ArgumentParser
import DPPXBuild
import DPPXCore

extension PlaceholderStyle: ExpressibleByArgument {}

/// `--placeholder color|blur`: what `dppx css` and `dppx html` paint in an image's box until it
/// arrives, from the placeholders `dppx build` records in the manifest.
struct PlaceholderOption: ParsableArguments {
    @Option(name: SettingRegistry.placeholder.name(), help: SettingRegistry.placeholder.argumentHelp)
    var placeholder: PlaceholderStyle?

    /// Stops with a usage error when placeholders are asked of a folder of masters: only a build
    /// makes them (it decodes every master). `style` is what the flag and the project file
    /// (`key`) together ask for.
    func check(_ input: RenderInput, style: PlaceholderStyle?, key: String) throws {
        guard style != nil, case .masters(let folder) = input.origin else { return }
        let asker = placeholder != nil ? "--placeholder" : "\(key) in the project file"
        throw ValidationError("\(asker) reads the placeholders 'dppx build' records in the manifest, but \(folder) is a folder of masters; build it first (dppx build \(folder) -o OUT) and give OUT")
    }
}
