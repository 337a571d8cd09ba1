import DPPXCore
import Foundation
import Testing

/// `quality = "auto"` and its targets in the project file and on the command line.
@Suite("Quality settings")
struct QualitySettingsTests {
    @Test("quality, webp-quality and avif-quality take a number or \"auto\", in [build] and in rules; targets take scores")
    func autoAndTargets() throws {
        let settings = try ProjectFile.settings(parsing: """
            [build]
            quality = "auto"
            webp-quality = 75
            avif-quality = "auto"
            quality-target = 85
            quality-target-hidpi = 72.5
            [[rule]]
            match = "icons/**"
            quality = 90
            webp-quality = "auto"
            quality-target = 88
            """)
        #expect(settings.jpegQuality == .auto && settings.webpQuality == 75 && settings.avifQuality == .auto)
        #expect(settings.qualityTarget == 85 && settings.qualityTargetHiDPI == 72.5)
        let rule = settings.planSettings.rule(for: "icons/a.png")
        #expect(rule.jpegQuality == 90 && rule.webpQuality == .auto && rule.qualityTarget == 88 && rule.qualityTargetHiDPI == nil)
    }

    @Test("the target falls from the 1x one to the hidpi one at 2x, linearly in the size of a file pixel on screen")
    func targetsByDensity() {
        let targets = QualityTargets(standard: 80, hiDPI: 65)
        #expect(targets.target(for: Density(0.5)) == 80)
        #expect(targets.target(for: Density(1)) == 80)
        #expect(abs(targets.target(for: Density(1.25)) - 74) < 1e-9)
        #expect(abs(targets.target(for: Density(1.5)) - 70) < 1e-9)
        #expect(targets.target(for: Density(2)) == 65)
        #expect(targets.target(for: Density(3)) == 65)
        #expect(QualityTargets().target(for: Density(2)) == QualityTargets.defaultHiDPI)
    }

    @Test("a standard target said alone moves the hidpi one with it; a rule's targets apply over the build's")
    func targetDefaults() {
        #expect(QualityTargets(standard: nil, hiDPI: nil, base: QualityTargets()) == QualityTargets(standard: 80, hiDPI: 65))
        #expect(QualityTargets(standard: 90, hiDPI: nil, base: QualityTargets()) == QualityTargets(standard: 90, hiDPI: 75))
        #expect(QualityTargets(standard: nil, hiDPI: 60, base: QualityTargets(standard: 85, hiDPI: 75)) == QualityTargets(standard: 85, hiDPI: 60))
    }

    @Test("bad qualities and targets name the key or flag, what is allowed and the value", arguments: [
        ("[build]\nquality = \"high\"\n", "build.quality must be a number from 1 to 100 or \"auto\", e.g. quality = 80 or quality = \"auto\"; got \"high\""),
        ("[build]\nwebp-quality = 0\n", "build.webp-quality must be between 1 and 100, e.g. webp-quality = 80; got 0"),
        ("[build]\nquality-target = 120\n", "build.quality-target must be a score between 0 and 100, e.g. quality-target = 80; got 120"),
        ("[[rule]]\nmatch = \"a/**\"\nquality-target-hidpi = \"low\"\n", "rule.quality-target-hidpi must be a score between 0 and 100, e.g. quality-target-hidpi = 65; got a string"),
    ])
    func errors(text: String, message: String) {
        #expect {
            try ProjectFile.settings(parsing: text)
        } throws: { error in
            String(describing: error).contains(message)
        }
    }

    @Test("flags: --quality auto parses, a number out of range and a target out of range are named")
    func flags() {
        #expect(EncoderQuality(parsing: "auto") == .auto && EncoderQuality(parsing: "AUTO") == .auto)
        #expect(EncoderQuality(parsing: "70") == 70 && EncoderQuality(parsing: "best") == nil)
        var settings = ProjectSettings()
        settings.jpegQuality = .fixed(0)
        #expect(settings.outOfBounds?.message(flags: true) == "--quality must be between 1 and 100, or auto, e.g. --quality 80; got 0")
        settings.jpegQuality = .auto
        #expect(settings.outOfBounds == nil)
        settings.qualityTargetHiDPI = -1
        #expect(settings.outOfBounds?.message(flags: true) == "--quality-target-hidpi must be a score between 0 and 100, e.g. --quality-target-hidpi 65; got -1")
    }

    @Test("a quality is written as a number or \"auto\" in settings fingerprints and manifests")
    func coding() throws {
        let encoded = try JSONEncoder().encode([EncoderQuality.fixed(82), .auto])
        #expect(String(decoding: encoded, as: UTF8.self) == "[82,\"auto\"]")
        #expect(try JSONDecoder().decode([EncoderQuality].self, from: encoded) == [.fixed(82), .auto])
    }
}
