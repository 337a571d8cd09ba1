import DPPXCore

extension EncodeSettings {
    /// The fields the settings fill (`SettingRegistry`), from the project file and the flags
    /// (`init(settings:)`) and from a rule (`applying(_:)`): a new encoder setting is its
    /// registry line, its field and its line here.
    public static let settingFields: [SettingField<EncodeSettings>] = [
        SettingField(SettingRegistry.jpegQuality, \.jpegQuality),
        SettingField(SettingRegistry.webpQuality, \.webpQuality),
        SettingField(SettingRegistry.avifQuality, \.avifQuality),
        SettingField(SettingRegistry.webpEffort, \.webpEffort),
        SettingField(SettingRegistry.avifEffort, \.avifEffort),
        SettingField(SettingRegistry.jxlQuality, \.jxlQuality),
        SettingField(SettingRegistry.pngCompression, \.pngCompression),
    ]

    /// The encoder settings `settings` give, the defaults for the rest.
    public init(settings: ProjectSettings) {
        self = Self.settingFields.filling(EncodeSettings(), from: settings)
        // True or nil, never false: see `compareFixed`.
        if SettingRegistry.compareFixed.resolved(in: settings) { compareFixed = true }
        if SettingRegistry.recompressPNG.resolved(in: settings) { recompressPNG = true }
        // A standard target alone moves the HiDPI one with it: see `QualityTargets`.
        qualityTargets = QualityTargets(standard: settings.qualityTarget, hiDPI: settings.qualityTargetHiDPI, base: QualityTargets())
    }

    /// These settings with the qualities and efforts `rule` sets for its masters.
    public func applying(_ rule: ImageRule) -> EncodeSettings {
        var result = Self.settingFields.filling(self, from: rule)
        result.qualityTargets = QualityTargets(standard: rule.qualityTarget, hiDPI: rule.qualityTargetHiDPI, base: qualityTargets)
        return result
    }
}
