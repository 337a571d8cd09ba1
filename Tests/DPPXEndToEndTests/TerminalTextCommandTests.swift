import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// What a page or a file's name contributes to a message reaches the terminal with its control
/// characters written out: no text of theirs clears the screen, sets the title, or prints a line
/// that looks like dppx's.
@Suite("Messages: control characters from pages and file names (end to end)", .serialized)
struct TerminalTextCommandTests {
    /// The control bytes a terminal acts on: C0 (line breaks aside, which end dppx's own lines), DEL, and C1's CSI.
    static func controls(in text: String) -> [UInt8] {
        text.utf8.filter { ($0 < 0x20 && $0 != 0x0A) || $0 == 0x7F } + text.unicodeScalars.filter { (0x80...0x9F).contains($0.value) }.map { UInt8($0.value & 0xFF) }
    }

    @Test("a damaged master named with escape sequences is named with them written out")
    func fileName() async throws {
        let scenario = try RenderScenario(masters: ["hero.jpg": (40, 30)], svg: false)
        let name = "\u{1B}[2J\u{1B}]0;owned\u{07}\u{9B}1m.jpg"
        try TestImages.writeBytes(Array("not a jpeg".utf8), to: scenario.scratch("src/" + name))
        let result = try await scenario.dppx("build", "src", "--out", "public")
        #expect(result.status == 1, "\(result)")
        #expect(Self.controls(in: result.stderr).isEmpty && Self.controls(in: result.stdout).isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stderr.lowercased().contains(#"\u{1b}[2j"#) && result.stderr.contains("owned"), "named, escapes written out: \(result.stderr.debugDescription)")
    }

    @Test("a page's JavaScript error text is shown with its escape sequences written out", .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func javaScriptError() async throws {
        let site = ScratchFolder("dppx-terminal")
        try FileManager.default.createDirectory(atPath: site.path, withIntermediateDirectories: true)
        try #"<!doctype html><script>throw new Error("\u001b[2J\u001b]0;owned\u0007\r\ndppx: measured 9 pages, all fine\u009b1m")</script>"#
            .write(toFile: site("index.html"), atomically: true, encoding: .utf8)
        let chromium = try #require(Chromium.installed).executable
        let result = try await offPool { try ChildProcess.run(DPPXExecutable.path, ["measure", site.path, "--browser", chromium], timeout: 120) }
        // Measured as it stands, with a warning naming what its script threw.
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("index.html") && result.stderr.contains(#"\u{1b}[2J"#), "\(result.stderr.debugDescription)")
        #expect(Self.controls(in: result.stderr).isEmpty, "\(result.stderr.debugDescription)")
        #expect(result.stderr.split(separator: "\n").allSatisfy { $0.hasPrefix("dppx: ") }, "every line is dppx's own: \(result.stderr.debugDescription)")
    }
}
