@testable import DPPXCore
import DPPXImaging
import Testing

/// `EncodeSettings(settings:)` and `applying(_:)`: every encoder setting of the project file,
/// the flags and a rule reaches its field through `EncodeSettings.settingFields`.
@Suite("Encoder settings from the project's settings")
struct EncodeSettingsFromSettingsTests {
    @Test("every encoder key of [build] reaches its field; nothing said keeps the registry's defaults")
    func fromTable() throws {
        #expect(EncodeSettings(settings: ProjectSettings()) == EncodeSettings())
        let settings = try ProjectFile.settings(parsing: """
            [build]
            quality = 70
            webp-quality = "auto"
            avif-quality = 40
            webp-effort = 6
            avif-effort = 7
            jxl-quality = 85
            png-compression = 9
            quality-target = 80
            compare-fixed = true
            """)
        var expected = EncodeSettings()
        expected.jpegQuality = .fixed(70)
        expected.webpQuality = .auto
        expected.avifQuality = .fixed(40)
        expected.webpEffort = 6
        expected.avifEffort = 7
        expected.jxlQuality = .fixed(85)
        expected.pngCompression = 9
        expected.qualityTargets = QualityTargets(standard: 80, hiDPI: nil, base: QualityTargets())
        expected.compareFixed = true
        #expect(EncodeSettings(settings: settings) == expected)
    }

    @Test("a rule's keys reach the settings of its masters; what it does not say stays the build's")
    func fromRule() throws {
        let settings = try ProjectFile.settings(parsing: """
            [build]
            quality = 70
            webp-effort = 5
            [[rule]]
            match = "heroes/**"
            webp-effort = 6
            avif-effort = 8
            jxl-quality = "auto"
            quality-target-hidpi = 60
            """)
        let build = EncodeSettings(settings: settings)
        var expected = build
        expected.webpEffort = 6
        expected.avifEffort = 8
        expected.jxlQuality = .auto
        expected.qualityTargets = QualityTargets(standard: nil, hiDPI: 60, base: build.qualityTargets)
        #expect(build.applying(try #require(settings.rules.first)) == expected)
        #expect(build.applying(ImageRule(match: [PathGlob("**")])) == build)
    }

    /// The settings a rule may say that change a build but are read elsewhere than
    /// `settingFields`: the plan's (`PlanSettings`, `ImagePlan`) and the quality targets.
    static let readElsewhere: Set<String> = [
        "build.formats", "build.widths", "rule.density", "rule.width", "rule.exclude",
        "build.quality-target", "build.quality-target-hidpi",
    ]

    @Test("every setting a rule may say that changes a build has a user: a field of EncodeSettings or one the plan reads")
    func everyRuleSettingIsUsed() {
        let declared = Set(SettingRegistry.all.filter { $0.buildName != nil }.map { "\($0.table.rawValue).\($0.key)" })
        let used = Set(EncodeSettings.settingFields.map(\.key)).union(Self.readElsewhere)
        #expect(declared.subtracting(used).isEmpty, "declared for rules with no user: \(declared.subtracting(used).sorted())")
        #expect(used.subtracting(declared).subtracting(["build.png-compression"]).isEmpty,
                "used but not declared for rules: \(used.subtracting(declared).sorted())")
    }
}
