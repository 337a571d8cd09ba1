@testable import DPPXCore
import DPPXTestSupport
import Testing

/// A setting declared with a flag in `SettingRegistry` is a flag of some command: a declaration
/// that no command takes fails here.
@Suite("Every setting's flag is a command's flag (end to end)")
struct SettingFlagsCommandTests {
    @Test("every flag the registry declares is in the help of build, css, html, serve or rewrite, with the registry's help")
    func everyFlagIsTaken() async throws {
        let folder = ScratchFolder("dppx-setting-flags")
        var help = ""
        for command in ["build", "css", "html", "serve", "rewrite"] {
            help += try await DPPXBinary.run([command, "--help"], in: folder.path).stdout
        }
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let flags = SettingRegistry.all.compactMap(\.flag)
        #expect(flags.count > 30)
        for flag in flags {
            #expect(flat.contains("--\(flag)"), "--\(flag) is declared in SettingRegistry but no command takes it")
        }
        let webpEffort = SettingRegistry.webpEffort
        #expect(flat.contains("--\(webpEffort.flag!) <\(webpEffort.valueName)> \(webpEffort.help)"))
    }
}
