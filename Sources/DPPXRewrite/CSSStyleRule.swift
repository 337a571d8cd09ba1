/// A style rule of a stylesheet (`.hero { background: ... }`), also one inside `@media`,
/// `@supports`, `@layer` or `@container`: its selector as written and where its block ends, which
/// is where a measured background's `@media` blocks go.
struct CSSStyleRule: Sendable {
    /// The selector list as written, trimmed (`.hero`, `main > .card`).
    let selector: String
    /// From the selector's first byte to after the block's `}`.
    let range: Range<Int>
    /// The declarations: between `{` and `}`.
    let body: Range<Int>
    /// The whitespace before the selector on its line when it starts a line, else nil.
    let indentation: String?

    /// The at-rules whose blocks hold rules (the others, `@font-face`, `@keyframes`, `@page`,
    /// hold none a background is painted by).
    private static let groupingRules: Set<String> = ["media", "supports", "layer", "container", "document", "-moz-document", "scope", "starting-style"]

    /// Every style rule in `bytes`, in order. `startsLine`: whether the first byte starts a line.
    static func all(in bytes: [UInt8], startsLine: Bool = true) -> [CSSStyleRule] {
        var found: [CSSStyleRule] = []
        var preludeStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if let skipped = skip(bytes, at: index) {
                index = skipped
                continue
            }
            switch byte {
            case UInt8(ascii: "{"):
                let start = preludeBegin(bytes, from: preludeStart, to: index)
                let prelude = String(decoding: bytes[start..<index], as: UTF8.self).trimmingASCIISpace()
                if prelude.hasPrefix("@") {
                    let name = prelude.dropFirst().prefix { $0.isLetter || $0 == "-" }.lowercased()
                    if groupingRules.contains(name) {
                        // Its rules are read as the top level's are; its `}` ends nothing.
                        preludeStart = index + 1
                        index += 1
                        continue
                    }
                    index = blockEnd(bytes, openedAt: index)
                    preludeStart = index
                    continue
                }
                let end = blockEnd(bytes, openedAt: index)
                if !prelude.isEmpty {
                    var lineStart = start
                    while lineStart > 0, bytes[lineStart - 1] == UInt8(ascii: " ") || bytes[lineStart - 1] == UInt8(ascii: "\t") { lineStart -= 1 }
                    let atLineStart = (lineStart == 0 && startsLine)
                        || (lineStart > 0 && (bytes[lineStart - 1] == UInt8(ascii: "\n") || bytes[lineStart - 1] == UInt8(ascii: "\r")))
                    found.append(CSSStyleRule(selector: prelude, range: start..<end, body: (index + 1)..<max(index + 1, end - 1),
                                              indentation: atLineStart ? String(decoding: bytes[lineStart..<start], as: UTF8.self) : nil))
                }
                index = end
                preludeStart = index
            case UInt8(ascii: ";"), UInt8(ascii: "}"):
                index += 1
                preludeStart = index
            default:
                index += 1
            }
        }
        return found
    }

    /// The preludes of the at-rule blocks nested in this rule that enclose `position` (a
    /// declaration's first byte in its body), outermost first, as written (`@media (max-width:
    /// 600px)` for `.hero { @media (max-width: 600px) { background-image: ... } }`); empty for
    /// a declaration of the rule's own block. Nil when a block enclosing it is not an `@media`
    /// or `@supports` (a nested style rule, `@layer`, `@container`): what dppx does not weigh.
    func nesting(of position: Int, in bytes: [UInt8]) -> [String]? {
        guard body.contains(position), body.upperBound <= bytes.count else { return nil }
        var open: [String?] = []
        var segmentStart = body.lowerBound
        var index = body.lowerBound
        while index < position {
            if let skipped = Self.skip(bytes, at: index) {
                index = skipped
                continue
            }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                let start = Self.preludeBegin(bytes, from: segmentStart, to: index)
                let prelude = String(decoding: bytes[start..<index], as: UTF8.self).trimmingASCIISpace()
                let name = prelude.hasPrefix("@") ? prelude.dropFirst().prefix { $0.isLetter || $0 == "-" }.lowercased() : ""
                open.append(name == "media" || name == "supports" ? prelude : nil)
                segmentStart = index + 1
            case UInt8(ascii: "}"):
                if !open.isEmpty { open.removeLast() }
                segmentStart = index + 1
            case UInt8(ascii: ";"):
                segmentStart = index + 1
            default: break
            }
            index += 1
        }
        let preludes = open.compactMap { $0 }
        return preludes.count == open.count ? preludes : nil
    }

    /// An at-rule's prelude as a browser's serialization and the text written compare equal
    /// (`@media (max-width:600px)` and `@media (max-width: 600px)`): without CSS whitespace,
    /// lowercased.
    static func normalizedCondition(_ prelude: String) -> String {
        String(decoding: prelude.utf8.filter { !CSSDeclaration.isSpace($0) }.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Where the prelude between `from` and `to` starts: after whitespace, comments and the
    /// `<!--` and `-->` a `<style>` may hold.
    private static func preludeBegin(_ bytes: [UInt8], from: Int, to: Int) -> Int {
        var start = from
        while start < to {
            if CSSDeclaration.isSpace(bytes[start]) {
                start += 1
            } else if bytes[start] == UInt8(ascii: "/"), start + 1 < to, bytes[start + 1] == UInt8(ascii: "*") {
                start = min(to, skip(bytes, at: start) ?? to)
            } else if bytes[start...].starts(with: "<!--".utf8) {
                start += 4
            } else if bytes[start...].starts(with: "-->".utf8) {
                start += 3
            } else {
                break
            }
        }
        return start
    }

    /// After a comment, a string or an escape starting at `index`; nil when none starts there.
    private static func skip(_ bytes: [UInt8], at index: Int) -> Int? {
        let byte = bytes[index]
        if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
            var end = index + 2
            while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "*") && bytes[end + 1] == UInt8(ascii: "/")) { end += 1 }
            return min(bytes.count, end + 2)
        }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            var end = index + 1
            while end < bytes.count, bytes[end] != byte, bytes[end] != UInt8(ascii: "\n") { end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1 }
            return min(bytes.count, end + 1)
        }
        if byte == UInt8(ascii: "\\") { return min(bytes.count, index + 2) }
        return nil
    }

    /// After the `}` that closes the block opened at `open` (the end of `bytes` when none does).
    static func blockEnd(_ bytes: [UInt8], openedAt open: Int) -> Int {
        var depth = 0
        var index = open
        while index < bytes.count {
            if let skipped = skip(bytes, at: index) {
                index = skipped
                continue
            }
            if bytes[index] == UInt8(ascii: "{") { depth += 1 }
            if bytes[index] == UInt8(ascii: "}") {
                depth -= 1
                if depth == 0 { return index + 1 }
            }
            index += 1
        }
        return bytes.count
    }

    /// `selector` as a browser's `selectorText` and the text written compare equal: without
    /// comments and quotes, lowercased, one space between compound selectors and none around
    /// combinators, commas, parentheses and brackets (`main>.Card ,a` and `main > .card, a`).
    static func normalized(_ selector: String) -> String {
        let bytes = Array(selector.utf8)
        var result: [UInt8] = []
        var space = false
        let tight: Set<UInt8> = Set(">+~,()[]=".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index = skip(bytes, at: index) ?? bytes.count
                space = true
                continue
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                if space, let last = result.last, !tight.contains(last) { result.append(UInt8(ascii: " ")) }
                space = false
                result += [byte, bytes[index + 1]]
                index += 2
                continue
            }
            index += 1
            if CSSDeclaration.isSpace(byte) {
                space = true
                continue
            }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { continue }
            if space, !tight.contains(byte), let last = result.last, !tight.contains(last) { result.append(UInt8(ascii: " ")) }
            space = false
            result.append((0x41...0x5A).contains(byte) ? byte + 32 : byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}
