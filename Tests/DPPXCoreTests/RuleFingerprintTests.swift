import DPPXCore
import Foundation
import Testing

/// A rule's part of the build's settings fingerprint (`PlanSettings` encoded, keys sorted): the
/// keys that change what a build writes, under the names builds have always recorded, so an
/// unchanged project file never rebuilds for a new dppx.
@Suite("A rule in the build's settings fingerprint")
struct RuleFingerprintTests {
    static func encoded(_ text: String) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let rules = try ProjectFile.settings(parsing: text).rules
        return String(decoding: try encoder.encode(rules), as: UTF8.self)
    }

    @Test("every key a rule may hold that changes a build is encoded under its field's name; sizes, css and cover are not")
    func everyBuildKey() throws {
        let json = try Self.encoded("""
            [[rule]]
            match = ["photos/**", "*.png"]
            density = 1.5
            width = 300
            widths = [480, 960]
            sizes = "50vw"
            formats = ["webp", "avif"]
            quality = 70
            webp-quality = "auto"
            avif-quality = 40
            quality-target = 80
            quality-target-hidpi = 60.5
            jxl-quality = 85
            webp-effort = 6
            avif-effort = 5
            exclude = false
            css = false
            cover = "100vw 50vh"
            """)
        #expect(json == #"[{"avifEffort":5,"avifQuality":40,"density":1.5,"exclude":false,"formats":["webp","avif"],"jpegQuality":70,"jxlQuality":85,"match":["photos\/**","*.png"],"qualityTarget":80,"qualityTargetHiDPI":60.5,"webpEffort":6,"webpQuality":"auto","width":300,"widths":{"explicit":{"_0":[480,960]}}}]"#, "\(json)")
    }

    @Test("a rule that says nothing but its match is its match")
    func matchOnly() throws {
        #expect(try Self.encoded("[[rule]]\nmatch = \"a/**\"\n") == #"[{"match":["a\/**"]}]"#)
    }
}
