import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Testing

@Suite("Rules: encoder efforts")
struct RuleEffortTests {
    @Test("a rule's webp-effort and avif-effort reach the encoders for its masters only")
    func ruleEfforts() throws {
        let fixture = BuildFixture()
        // The same pixels under two names: only the encoder settings tell their files apart.
        try TestImages.write(fixture.source("heroes/big@2x.png"), width: 320, height: 200)
        try TestImages.write(fixture.source("plain@2x.png"), width: 320, height: 200)
        let rules = try ProjectFile.settings(parsing: "[[rule]]\nmatch = \"heroes/**\"\nwebp-effort = 6\navif-effort = 5\n").rules
        #expect(rules.first?.webpEffort == 6 && rules.first?.avifEffort == 5)
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp, .avif], rules: rules))
        #expect(report.succeeded, "\(report.failures)")

        // The 2x files hold the master's own pixels: each is its encoder's file of them.
        let master = try MasterImage(path: fixture.source("plain@2x.png"), limits: DecodeLimits(maxPixels: 1_000_000))
        let decoded = try master.decode()
        let pixels = try decoded.resized(to: PixelSize(width: 320, height: 200))
        var ruled = EncodeSettings()
        ruled.webpEffort = 6
        ruled.avifEffort = 5
        let plain = EncodeSettings()
        for format in [ImageFormat.webp, .avif] {
            // Compared by hash: a failure then prints two lines, not two files.
            let heroFile = ContentHash.sha256(try AtomicFile.read(fixture.output("heroes/big@2x.\(format.rawValue)")))
            let plainFile = ContentHash.sha256(try AtomicFile.read(fixture.output("plain@2x.\(format.rawValue)")))
            #expect(heroFile != plainFile, "\(format): the rule's effort gives another file")
            let atRuleEffort = ContentHash.sha256(try Encoder.encode(pixels, as: format, settings: ruled, losslessSource: true, file: "big"))
            let atBuildEffort = ContentHash.sha256(try Encoder.encode(pixels, as: format, settings: plain, losslessSource: true, file: "plain"))
            #expect(atRuleEffort == heroFile, "\(format): the rule's master is encoded at the rule's effort")
            #expect(atBuildEffort == plainFile, "\(format): other masters keep the build's effort")
        }
    }
}
