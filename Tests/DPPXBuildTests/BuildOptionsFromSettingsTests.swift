import DPPXBuild
@testable import DPPXCore
import DPPXImaging
import Testing

/// `BuildOptions(settings:)`, `EncodeSettings(settings:)` and `applying(_:)`: every build setting
/// of the project file, the flags and a rule reaches its field (`EncodeSettings.settingFields`,
/// `DecodeLimits.settingFields`).
@Suite("Build options from the project's settings")
struct BuildOptionsFromSettingsTests {
    @Test("the limits and jobs of [build] reach the build's options; nothing said keeps the registry's defaults")
    func limitsAndJobs() throws {
        let plain = BuildOptions(settings: ProjectSettings(), sourceRoot: "src", outputRoot: "out")
        #expect(plain.limits == DecodeLimits() && plain.limits.failOn == SettingRegistry.failOn.fallback)
        #expect(plain.encode == EncodeSettings() && plain.sourceRoot == "src" && plain.outputRoot == "out")
        let settings = try ProjectFile.settings(parsing: """
            [build]
            max-pixels = 1000
            max-frames = 3
            max-scans = 4
            fail-on = "warning"
            jobs = 2
            webp-effort = 6
            densities = [1, 2]
            """)
        let options = BuildOptions(settings: settings, sourceRoot: "src", outputRoot: "out")
        var limits = DecodeLimits(maxPixels: 1000, maxFrames: 3, maxScans: 4)
        limits.failOn = .warning
        #expect(options.limits == limits && options.jobs == 2)
        #expect(options.encode.webpEffort == 6 && options.densities == [Density(1), Density(2)])
    }

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
