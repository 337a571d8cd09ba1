/// One setting, declared once (in `SettingRegistry`): its project-file key and table, its flag,
/// what it takes, its default, its help and whether `[[rule]]` may say it. The project file's
/// keys, the `[[rule]]` keys, where `ProjectSettings` and `ImageRule` keep its value, the range
/// checks of flags, `ProjectSettings.overlaid(by:)` and the flags' help (with the default in it)
/// all follow from these declarations, so a setting is written once.
public struct Setting<Value: Hashable & Sendable>: Sendable {
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
    /// How a `[[rule]]` holds it; nil when rules may not say it.
    public let rule: RuleUse<Value>?

    init(_ key: String, in table: ProjectTable, flag: String? = nil, _ value: SettingValue<Value>, default defaultValue: Value? = nil,
         help: String = "", valueName: String = "VALUE", rule: RuleUse<Value>? = nil) {
        self.key = key
        self.table = table
        self.flag = flag
        self.value = value
        self.defaultValue = defaultValue
        self.help = help
        self.valueName = valueName
        self.rule = rule
    }

    /// `table.key`, as errors name it: `build.quality`. Also what `ProjectSettings` and
    /// `ImageRule` keep its value under (unique: a table's keys are).
    public var qualifiedKey: String { "\(table.rawValue).\(key)" }

    /// The value `settings` give, else the default.
    public func value(in settings: ProjectSettings) -> Value? {
        settings[self] ?? defaultValue
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
        let read = value.read
        return AnySetting(
            key: key, table: table, flag: flag, inRules: rule != nil, isReadFromFile: value.isReadFromFile, buildName: rule?.buildName,
            read: { entry, settings throws(ProjectFileError) in settings[self] = try read(entry) },
            readRule: { entry, rule throws(ProjectFileError) in rule[self] = try read(entry) },
            problem: { settings in settings[self].flatMap(problem(with:)) },
            encode: { values, container in
                guard let name = rule?.buildName, let encode = rule?.encode, let value = values[self] else { return }
                try encode(value, name, &container)
            },
            decode: { container, values in
                guard let name = rule?.buildName, let decode = rule?.decode else { return }
                values[self] = try decode(name, container)
            })
    }
}

/// A `Setting` of any type, for going through all of them: reading a table, checking bounds,
/// encoding a rule.
struct AnySetting: Sendable {
    let key: String
    let table: ProjectTable
    /// The command-line flag, without dashes; nil when only the file says it.
    let flag: String?
    /// Whether `[[rule]]` may say it too.
    let inRules: Bool
    /// False when only the command line or the environment may say it (`SettingValue.commandLineOnly`).
    let isReadFromFile: Bool
    /// Its name in a rule's encoding when it changes what a build writes (`RuleUse.build`).
    let buildName: String?
    /// Reads a project-file entry into its `ProjectSettings` value.
    let read: @Sendable (SettingEntry, inout ProjectSettings) throws(ProjectFileError) -> Void
    /// Reads a `[[rule]]` entry into its `ImageRule` value.
    let readRule: @Sendable (SettingEntry, inout ImageRule) throws(ProjectFileError) -> Void
    /// The value of these settings out of bounds, or nil.
    let problem: @Sendable (ProjectSettings) -> SettingProblem?
    /// Encodes a rule's value, when it has one and the setting changes what a build writes.
    let encode: @Sendable (SettingStore, inout KeyedEncodingContainer<SettingCodingKey>) throws -> Void
    /// Decodes what `encode` wrote.
    let decode: @Sendable (KeyedDecodingContainer<SettingCodingKey>, inout SettingStore) throws -> Void
}
