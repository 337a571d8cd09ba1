/// A setting and the field of an options type it fills: `EncodeSettings.webpEffort` from
/// `SettingRegistry.webpEffort`. An options type lists its fields once and is filled from the
/// project's settings and from a rule through that list, so a new setting reaches its field
/// with one line beside the field, not a copy in every place options are made.
public struct SettingField<Options>: Sendable {
    /// The setting's `qualifiedKey`: `build.webp-effort`.
    public let key: String
    private let fromSettings: @Sendable (ProjectSettings, inout Options) -> Void
    private let fromRule: @Sendable (ImageRule, inout Options) -> Void

    /// Fills `field` with the setting's value where one is said; a field with a default keeps it
    /// where none is.
    public init<Value>(_ setting: Setting<Value>, _ field: WritableKeyPath<Options, Value> & Sendable) {
        key = setting.qualifiedKey
        fromSettings = { settings, options in if let value = settings[setting] { options[keyPath: field] = value } }
        fromRule = { rule, options in if let value = rule[setting] { options[keyPath: field] = value } }
    }

    /// Fills an optional `field`, whose nil says "not said" (`jxlQuality`), with the setting's
    /// value where one is said.
    public init<Value>(_ setting: Setting<Value>, _ field: WritableKeyPath<Options, Value?> & Sendable) {
        key = setting.qualifiedKey
        fromSettings = { settings, options in if let value = settings[setting] { options[keyPath: field] = value } }
        fromRule = { rule, options in if let value = rule[setting] { options[keyPath: field] = value } }
    }

    /// Takes the value `settings` say into `options`, when they say one.
    public func fill(_ options: inout Options, from settings: ProjectSettings) { fromSettings(settings, &options) }

    /// Takes the value `rule` says into `options`, when it says one.
    public func fill(_ options: inout Options, from rule: ImageRule) { fromRule(rule, &options) }
}

extension Array {
    /// `options` with every one of these fields filled from `settings`.
    public func filling<Options>(_ options: Options, from settings: ProjectSettings) -> Options where Element == SettingField<Options> {
        var result = options
        for field in self { field.fill(&result, from: settings) }
        return result
    }

    /// `options` with every one of these fields filled from `rule`.
    public func filling<Options>(_ options: Options, from rule: ImageRule) -> Options where Element == SettingField<Options> {
        var result = options
        for field in self { field.fill(&result, from: rule) }
        return result
    }
}
