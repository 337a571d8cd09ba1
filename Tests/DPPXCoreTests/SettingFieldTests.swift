import DPPXCore
import Testing

/// `SettingField`: one line that takes a setting into a field of an options type, from the
/// project's settings and from a rule.
@Suite("A setting's field in an options type")
struct SettingFieldTests {
    /// An options type with a defaulted field and an optional one.
    struct Options: Equatable {
        var effort = 4
        var jxlQuality: EncoderQuality?
        var port = 8080
    }

    static let fields: [SettingField<Options>] = [
        SettingField(SettingRegistry.webpEffort, \.effort),
        SettingField(SettingRegistry.jxlQuality, \.jxlQuality),
        SettingField(SettingRegistry.port, \.port),
    ]

    @Test("a said value fills its field; a field whose setting is not said keeps its value")
    func fromSettings() throws {
        let settings = try ProjectFile.settings(parsing: "[build]\nwebp-effort = 6\njxl-quality = \"auto\"\n")
        #expect(Self.fields.filling(Options(), from: settings) == Options(effort: 6, jxlQuality: .auto, port: 8080))
        #expect(Self.fields.filling(Options(effort: 1), from: ProjectSettings()) == Options(effort: 1))
        #expect(Self.fields.map(\.key) == ["build.webp-effort", "build.jxl-quality", "serve.port"])
    }

    @Test("a rule fills the fields of the settings it says, over the options it is applied to")
    func fromRule() throws {
        let rule = try #require(try ProjectFile.settings(parsing: "[[rule]]\nmatch = \"a/**\"\nwebp-effort = 2\n").rules.first)
        let build = Options(effort: 5, jxlQuality: .fixed(70), port: 3000)
        #expect(Self.fields.filling(build, from: rule) == Options(effort: 2, jxlQuality: .fixed(70), port: 3000))
    }
}
