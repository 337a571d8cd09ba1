import ArgumentParser
import DPPXCore

/// A setting's flag as ArgumentParser declares it: its name and help (with the default) come
/// from `SettingRegistry`, where the project file's key, range and default are declared too.
extension Setting {
    /// `--NAME`, and `-short` when given.
    func name(short: Character? = nil) -> NameSpecification {
        let long = NameSpecification.customLong(flag ?? key)
        guard let short else { return long }
        return [.customShort(short), .customLong(flag ?? key)]
    }

    /// The flag's help and value name.
    var argumentHelp: ArgumentHelp { ArgumentHelp(help, valueName: valueName) }
}
