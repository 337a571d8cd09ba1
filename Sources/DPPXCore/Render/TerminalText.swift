/// Text from outside dppx (a page's JavaScript error, a file's name, a manifest's path) as it may
/// be shown in a terminal: every control character written out as `\u{1b}`, so no such text can
/// clear the screen, set the window's title, move the cursor back over a line (`\r`) or print a
/// line of its own that looks like dppx's. The one rule every message dppx prints goes through.
public enum TerminalText {
    /// `text` with C0 and C1 control characters (line breaks and tabs included), DEL, and the
    /// bidirectional overrides that reorder what is shown (U+202A-U+202E, U+2066-U+2069,
    /// U+200E, U+200F) written as `\u{...}`; kept as it is when it has none (nothing copied).
    /// `keepingLineBreaks` keeps `\n`: for dppx's own text of several lines (usage help).
    public static func printable(_ text: String, keepingLineBreaks: Bool = false) -> String {
        // Almost all text has none: its bytes are looked at once (C1 controls and the overrides
        // begin with 0xC2 and 0xE2 in UTF-8), and it is kept as it is.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }),
              text.unicodeScalars.contains(where: { isShownEscaped($0, keepingLineBreaks: keepingLineBreaks) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isShownEscaped(scalar, keepingLineBreaks: keepingLineBreaks) {
                result += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isShownEscaped(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool) -> Bool {
        switch scalar.value {
        case 0x0A: !keepingLineBreaks
        case 0x00..<0x20, 0x7F...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
