@testable import DPPXCore
import Testing

/// Text from pages and file names as a terminal may show it.
@Suite("Terminal text")
struct TerminalTextTests {
    @Test("control characters, DEL, C1 and bidirectional overrides are written out; other text is kept as it is")
    func printable() {
        #expect(TerminalText.printable("hero.jpg: not a JPEG") == "hero.jpg: not a JPEG")
        #expect(TerminalText.printable("é ✓ 写真.jpg") == "é ✓ 写真.jpg")
        #expect(TerminalText.printable("\u{1B}[2J\u{1B}]0;t\u{07}\r\n\t\u{7F}\u{9B}x\u{202E}gpj.exe")
            == #"\u{1b}[2J\u{1b}]0;t\u{7}\u{d}\u{a}\u{9}\u{7f}\u{9b}x\u{202e}gpj.exe"#)
        #expect(TerminalText.printable("usage:\n  dppx\u{1B}", keepingLineBreaks: true) == "usage:\n  dppx\\u{1b}")
    }
}
