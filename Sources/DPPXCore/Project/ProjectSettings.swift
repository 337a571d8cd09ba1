/// Everything a command can be told, from the project file (`dppx.toml`) or from flags, each
/// setting nil when that layer does not say it: `overlaid(by:)` lets flags override the file for
/// one run, and what neither says takes the documented default where it is used.
///
/// One type for both layers keeps `build`, `css`, `html` and `serve --watch` reading the same
/// settings the same way. Its properties are the settings of `SettingRegistry`, which declares
/// each one's key, flag, range, default and help: `settings.webpEffort` reads and writes
/// `SettingRegistry.webpEffort` (`[build] webp-effort`, `--webp-effort`).
@dynamicMemberLookup
public struct ProjectSettings: Hashable, Sendable {
    /// What is said, by setting.
    private var said = SettingStore()

    /// Per-glob rules, in file order: the last one that matches a master wins, field by field.
    public var rules: [ImageRule]

    public init() { rules = [] }

    /// The value said of `setting`, nil when this layer does not say it.
    public subscript<Value>(setting: Setting<Value>) -> Value? {
        get { said[setting] }
        set { said[setting] = newValue }
    }

    /// `settings.webpEffort`: the value said of the registry's setting of that name
    /// (`SettingRegistry.webpEffort`), nil when this layer does not say it. A setting declared
    /// in the registry is a property here, with no field to add.
    public subscript<Value>(dynamicMember name: KeyPath<SettingRegistry.Type, Setting<Value>>) -> Value? {
        get { said[SettingRegistry.self[keyPath: name]] }
        set { said[SettingRegistry.self[keyPath: name]] = newValue }
    }

    /// These settings with every setting `other` says taken from `other`; its rules come after
    /// these (and so win).
    public func overlaid(by other: ProjectSettings) -> ProjectSettings {
        var result = self
        result.said = said.overlaid(by: other.said)
        result.rules += other.rules
        return result
    }

    /// The plan settings for masters: densities, formats, upscaling and rules, with the
    /// defaults for what is not said. A source density said here (flag or file) is intent the
    /// user gave; the default is not.
    public var planSettings: PlanSettings {
        PlanSettings(densities: SettingRegistry.densities.resolved(in: self),
                     defaultSourceDensity: self.sourceDensity ?? PlanSettings.defaultSourceDensity,
                     sourceDensityGiven: self.sourceDensity != nil,
                     extraFormats: self.formats ?? [], allowUpscale: SettingRegistry.upscale.resolved(in: self), widths: self.widths, rules: rules)
    }

    /// The `sizes` of fluid images: the rules', else the one said here, else the default.
    public var markupSizes: MarkupSizes { MarkupSizes(fallback: self.sizes, rules: rules) }

    /// The stylesheet options, with the defaults for what is not said.
    public var stylesheetOptions: StylesheetOptions {
        StylesheetOptions(classPrefix: SettingRegistry.classPrefix.resolved(in: self), box: SettingRegistry.box.resolved(in: self),
                          legacy: SettingRegistry.legacy.resolved(in: self),
                          stripPath: self.stripPath ?? "", match: self.cssMatch, rules: rules, placeholder: self.placeholder)
    }
}
