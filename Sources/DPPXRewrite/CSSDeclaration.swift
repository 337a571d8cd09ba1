/// A declaration of a stylesheet (`background: #000 url(hero.jpg) no-repeat`), found by a
/// scanner that knows CSS's comments, strings and parentheses (a `;` in a `data:` URL or a
/// string ends nothing).
struct CSSDeclaration: Sendable {
    /// The property, lowercased (`background-image`).
    let property: String
    /// The value as written, trimmed.
    let value: String
    /// From the property's first byte to the end of the value (before `;` or `}`).
    let range: Range<Int>
    /// Where the declaration ends: after its `;`, or at the `}` closing its block.
    let end: Int
    /// Whether it ends with `;`.
    let hasSemicolon: Bool
    /// The whitespace before it on its line when it starts a line (`"  "`), else nil.
    let indentation: String?

    /// Every declaration in `bytes`, in order (at-rule preludes and selectors are skipped).
    /// `startsLine`: whether the first byte starts a line (it does in a file, not in a
    /// `<style>` or an attribute). `isDeclarationList`: the declarations of a `style` attribute,
    /// whose last one ends with the text rather than with `;` or `}`.
    static func all(in bytes: [UInt8], startsLine: Bool = true, isDeclarationList: Bool = false) -> [CSSDeclaration] {
        var found: [CSSDeclaration] = []
        var segmentStart = 0
        var depth = 0
        var index = 0
        func close(at terminator: Int, semicolon: Bool) {
            if let declaration = CSSDeclaration(bytes, segmentStart..<terminator, semicolon: semicolon, startsLine: startsLine) {
                found.append(declaration)
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*"):
                var end = index + 2
                while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                index = min(bytes.count, end + 2)
                continue
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                var end = index + 1
                while end < bytes.count, bytes[end] != byte, bytes[end] != UInt8(ascii: "\n") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                index = end + 1
                continue
            case UInt8(ascii: "\\"):
                index += 2
                continue
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth = max(0, depth - 1)
            case UInt8(ascii: "{") where depth == 0:
                segmentStart = index + 1
            case UInt8(ascii: ";") where depth == 0:
                close(at: index, semicolon: true)
                segmentStart = index + 1
            case UInt8(ascii: "}") where depth == 0:
                close(at: index, semicolon: false)
                segmentStart = index + 1
            default: break
            }
            index += 1
        }
        if isDeclarationList, segmentStart < bytes.count { close(at: bytes.count, semicolon: false) }
        return found
    }

    private init?(_ bytes: [UInt8], _ segment: Range<Int>, semicolon: Bool, startsLine: Bool) {
        var start = segment.lowerBound
        // Skip whitespace and comments before the property.
        while start < segment.upperBound {
            if Self.isSpace(bytes[start]) { start += 1; continue }
            if bytes[start] == UInt8(ascii: "/"), start + 1 < segment.upperBound, bytes[start + 1] == UInt8(ascii: "*") {
                var end = start + 2
                while end + 1 < segment.upperBound, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
                start = end + 2
                continue
            }
            break
        }
        guard start < segment.upperBound, bytes[start] != UInt8(ascii: "@"),
              let colon = bytes[start..<segment.upperBound].firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = String(decoding: bytes[start..<colon], as: UTF8.self).trimmingASCIISpace()
        guard !name.isEmpty, name.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 >= 0x80 || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "_") }) else { return nil }
        var end = segment.upperBound
        while end > colon + 1, Self.isSpace(bytes[end - 1]) { end -= 1 }
        property = name.lowercased()
        value = String(decoding: bytes[(colon + 1)..<end], as: UTF8.self).trimmingASCIISpace()
        range = start..<end
        self.end = semicolon ? segment.upperBound + 1 : segment.upperBound
        hasSemicolon = semicolon
        var lineStart = start
        while lineStart > 0, bytes[lineStart - 1] == UInt8(ascii: " ") || bytes[lineStart - 1] == UInt8(ascii: "\t") { lineStart -= 1 }
        indentation = (lineStart == 0 && startsLine) || (lineStart > 0 && (bytes[lineStart - 1] == UInt8(ascii: "\n") || bytes[lineStart - 1] == UInt8(ascii: "\r")))
            ? String(decoding: bytes[lineStart..<start], as: UTF8.self) : nil
    }

    /// The URLs of the `url()` functions in the value, in order (quoted or not), CSS escapes
    /// decoded (`url(h\65 ro.jpg)` is `hero.jpg`).
    var urls: [String] { Self.urls(in: value) }

    /// The URLs of the `url()` functions in `value`, in order, CSS escapes decoded.
    static func urls(in value: String) -> [String] {
        var found: [String] = []
        let text = Array(value.utf8)
        var index = 0
        while index + 4 <= text.count {
            let isURL = String(decoding: text[index..<(index + 4)], as: UTF8.self).lowercased() == "url("
                && (index == 0 || !Self.isNameByte(text[index - 1]))
            guard isURL else {
                if text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'") {
                    let quote = text[index]
                    index += 1
                    while index < text.count, text[index] != quote { index += text[index] == UInt8(ascii: "\\") ? 2 : 1 }
                }
                index += 1
                continue
            }
            var start = index + 4
            while start < text.count, Self.isSpace(text[start]) { start += 1 }
            var end = start
            var url: [UInt8] = []
            if start < text.count, text[start] == UInt8(ascii: "\"") || text[start] == UInt8(ascii: "'") {
                let quote = text[start]
                end = start + 1
                while end < text.count, text[end] != quote { end += text[end] == UInt8(ascii: "\\") ? 2 : 1 }
                url = Array(text[(start + 1)..<min(end, text.count)])
                while end < text.count, text[end] != UInt8(ascii: ")") { end += 1 }
            } else {
                while end < text.count, text[end] != UInt8(ascii: ")") { end += text[end] == UInt8(ascii: "\\") ? 2 : 1 }
                url = Array(text[start..<min(end, text.count)])
            }
            found.append(unescaped(url).trimmingASCIISpace())
            index = end + 1
        }
        return found
    }

    /// `bytes` with CSS escapes decoded (CSS Syntax 4.3.7): `\` and 1-6 hex digits (and one
    /// whitespace after them) is that code point, `\` and a line break nothing (in a string),
    /// `\` and any other character that character.
    static func unescaped(_ bytes: [UInt8]) -> String {
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "\\") else {
                result.append(bytes[index])
                index += 1
                continue
            }
            index += 1
            guard index < bytes.count else { break }
            var hex = 0
            var digits = 0
            while digits < 6, index < bytes.count, let digit = hexValue(bytes[index]) {
                hex = hex * 16 + digit
                digits += 1
                index += 1
            }
            if digits > 0 {
                let scalar = hex == 0 ? nil : Unicode.Scalar(UInt32(hex))
                result += Array(String(Character(scalar ?? "\u{FFFD}")).utf8)
                if index < bytes.count, isSpace(bytes[index]) {
                    index += bytes[index] == UInt8(ascii: "\r") && index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
                }
            } else if bytes[index] == UInt8(ascii: "\n") || bytes[index] == 0x0C {
                index += 1
            } else if bytes[index] == UInt8(ascii: "\r") {
                index += index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "\n") ? 2 : 1
            } else {
                result.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == 0x0C
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte >= 0x80 || (0x30...0x39).contains(byte)
            || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}

extension String {
    /// Without leading and trailing CSS whitespace.
    func trimmingASCIISpace() -> String {
        let bytes = Array(utf8)
        var start = 0
        var end = bytes.count
        while start < end, CSSDeclaration.isSpace(bytes[start]) { start += 1 }
        while end > start, CSSDeclaration.isSpace(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
