/// One setting, declared once (in `SettingRegistry`): its project-file key and table, its flag,
/// what it takes, its default and its help. The project file's keys, the `[[rule]]` keys, the
/// range checks of flags, `ProjectSettings.overlaid(by:)` and the flags' help (with the
/// default in it) all follow from these declarations, so a default or a range is written once.
public struct Setting<Value: Sendable>: Sendable {
    /// The key in its table: `webp-quality`.
    public let key: String
    /// The table the key belongs to; `.rule` for a key only rules have (`density`, `exclude`).
    public let table: ProjectTable
    /// The command-line flag, without dashes (`webp-quality`); nil when only the file says it.
    public let flag: String?
    /// What the key and the flag take.
    public let value: SettingValue<Value>
    /// The value used when nothing says one; nil when it is not one value (`jobs`: the number of
    /// cores) or when "not said" is itself the default (`source-density`).
    public let defaultValue: Value?
    /// The flag's help, its default included.
    public let help: String
    /// How the flag's value is named in help: `Q`, `N`, `LIST`.
    public let valueName: String
    /// Where `ProjectSettings` holds it; nil for a key only rules have.
    let field: (WritableKeyPath<ProjectSettings, Value?> & Sendable)?
    /// Where an `ImageRule` holds it, when `[[rule]]` may say it too.
    let ruleField: (WritableKeyPath<ImageRule, Value?> & Sendable)?

    init(_ key: String, in table: ProjectTable, flag: String? = nil, _ value: SettingValue<Value>, default defaultValue: Value? = nil,
         help: String = "", valueName: String = "VALUE",
         field: (WritableKeyPath<ProjectSettings, Value?> & Sendable)?, rule ruleField: (WritableKeyPath<ImageRule, Value?> & Sendable)? = nil) {
        self.key = key
        self.table = table
        self.flag = flag
        self.value = value
        self.defaultValue = defaultValue
        self.help = help
        self.valueName = valueName
        self.field = field
        self.ruleField = ruleField
    }

    /// `table.key`, as errors name it: `build.quality`.
    public var qualifiedKey: String { "\(table.rawValue).\(key)" }

    /// The value `settings` give, else the default.
    public func value(in settings: ProjectSettings) -> Value? {
        field.flatMap { settings[keyPath: $0] } ?? defaultValue
    }

    /// The value `settings` give, else the default, for a setting declared with one.
    public func resolved(in settings: ProjectSettings) -> Value {
        guard let value = value(in: settings) else { preconditionFailure("\(qualifiedKey) is declared without a default") }
        return value
    }

    /// The default, for a setting declared with one.
    public var fallback: Value {
        guard let defaultValue else { preconditionFailure("\(qualifiedKey) is declared without a default") }
        return defaultValue
    }

    /// `value`, out of this setting's bounds as a flag would say it, or nil when it is fine.
    public func problem(with value: Value) -> SettingProblem? {
        guard let bound = self.value.bounds(value) else { return nil }
        return SettingProblem(flag: flag ?? key, key: qualifiedKey, allowed: bound.allowed, example: self.value.example, value: bound.shown)
    }

    /// The type-erased form the registry lists.
    var erased: AnySetting {
        let field = field, ruleField = ruleField, read = value.read
        return AnySetting(
            key: key, table: table, inRules: ruleField != nil,
            read: { entry, settings throws(ProjectFileError) in
                guard let field else { return }
                settings[keyPath: field] = try read(entry)
            },
            readRule: { entry, rule throws(ProjectFileError) in
                guard let ruleField else { return }
                rule[keyPath: ruleField] = try read(entry)
            },
            overlay: { other, settings in
                guard let field, let value = other[keyPath: field] else { return }
                settings[keyPath: field] = value
            },
            mergeRule: { rule, merged in
                guard let ruleField, let value = rule[keyPath: ruleField] else { return }
                merged[keyPath: ruleField] = value
            },
            problem: { settings in
                guard let field, let value = settings[keyPath: field] else { return nil }
                return problem(with: value)
            })
    }
}

/// A `Setting` of any type, for going through all of them: reading a table, overlaying
/// settings, merging rules, checking bounds.
struct AnySetting: Sendable {
    let key: String
    let table: ProjectTable
    /// Whether `[[rule]]` may say it too.
    let inRules: Bool
    /// Reads a project-file entry into its `ProjectSettings` field.
    let read: @Sendable (SettingEntry, inout ProjectSettings) throws(ProjectFileError) -> Void
    /// Reads a `[[rule]]` entry into its `ImageRule` field.
    let readRule: @Sendable (SettingEntry, inout ImageRule) throws(ProjectFileError) -> Void
    /// Takes the value of the first settings, when they say one, into the second.
    let overlay: @Sendable (ProjectSettings, inout ProjectSettings) -> Void
    /// Takes the value of a rule, when it says one, into the merged rule.
    let mergeRule: @Sendable (ImageRule, inout ImageRule) -> Void
    /// The value of these settings out of bounds, or nil.
    let problem: @Sendable (ProjectSettings) -> SettingProblem?
}
