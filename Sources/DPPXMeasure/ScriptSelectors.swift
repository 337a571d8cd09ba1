import Foundation

/// The selectors a page's own scripts hold that name where an element sits among its parent's
/// children: `.card > img`, `.gallery img:first-child`, `h2 + img`. A `<picture>` wrapper moves
/// an `<img>` under a new parent, so such a script stops finding it, and no measurement shows
/// that (the script may run on a click). Checking a `--picture` rewrite matches them against
/// each `<img>` of the untouched page, and leaves one that matches without a wrapper.
///
/// A cheap scan, not a JavaScript parser: the string literals of inline `<script>` elements and
/// of the site's script files the page loaded (comments skipped, one line each, no `${`), each
/// comma-separated selector of one kept where its last step is reached by `>`, `+` or `~`, or
/// holds a child-position pseudo-class (`:first-child`, `:nth-of-type()`...). A selector built
/// at run time (`parent + ' > img'`), a walk by `parentNode` or `children[0]` are not seen.
public enum ScriptSelectors {
    /// The longest string literal read as a selector, in bytes.
    public static let maximumLength = 256
    /// The most selectors kept of one page.
    public static let maximumCount = 64

    /// The pseudo-classes that depend on an element's place among its parent's children.
    static let childPseudoClasses = [":first-child", ":last-child", ":only-child", ":nth-child(", ":nth-last-child(",
                                     ":first-of-type", ":last-of-type", ":only-of-type", ":nth-of-type(", ":nth-last-of-type("]

    /// The selectors of `scripts` (each a file's name and its JavaScript source) naming a
    /// parent-child relation, each with the name of the first script holding it; at most
    /// `maximumCount`, in the order found.
    public static func of(_ scripts: [(name: String, source: [UInt8])]) -> [(selector: String, script: String)] {
        var found: [(selector: String, script: String)] = []
        var seen = Set<String>()
        for (name, source) in scripts {
            for literal in stringLiterals(in: source) {
                guard let selector = relational(literal), seen.insert(selector).inserted else { continue }
                found.append((selector, name))
                if found.count == maximumCount { return found }
            }
        }
        return found
    }

    /// The text of each inline `<script>` of the HTML page `bytes`: what follows a `<script`
    /// tag up to the next `</script` (how HTML ends a script), the tag's `src` aside (that file
    /// is read as a file the page loaded).
    public static func inlineScripts(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var scripts: [ArraySlice<UInt8>] = []
        var index = 0
        while let open = find("<script", in: bytes, from: index) {
            guard let close = bytes[open...].firstIndex(of: UInt8(ascii: ">")) else { break }
            let end = find("</script", in: bytes, from: close + 1) ?? bytes.count
            scripts.append(bytes[(close + 1)..<end])
            index = end
        }
        return scripts
    }

    /// The string literals of `source` in quotes, apostrophes or backquotes, each on one line
    /// and at most `maximumLength` bytes; comments are skipped.
    static func stringLiterals(in source: some Collection<UInt8>) -> [String] {
        let bytes = Array(source)
        var literals: [String] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 2
                continue
            }
            guard byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "`") else {
                index += 1
                continue
            }
            var end = index + 1
            var escaped = false
            while end < bytes.count {
                let next = bytes[end]
                if escaped { escaped = false } else if next == UInt8(ascii: "\\") { escaped = true } else if next == byte { break }
                if next == UInt8(ascii: "\n"), byte != UInt8(ascii: "`") { break }
                end += 1
            }
            let body = bytes[(index + 1)..<min(end, bytes.count)]
            if end < bytes.count, bytes[end] == byte, body.count <= maximumLength, !body.contains(UInt8(ascii: "\n")) {
                literals.append(String(decoding: body, as: UTF8.self))
            }
            index = end + 1
        }
        return literals
    }

    /// The selectors of `literal` (a selector list) whose last step depends on the element's
    /// place among its parent's children, joined by `, `; nil when none does, or when the text
    /// is not a selector (markup, code, a template with `${`).
    static func relational(_ literal: String) -> String? {
        guard !literal.contains("<"), !literal.contains("{"), !literal.contains(";"), !literal.contains("=>"),
              !literal.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let kept = splitList(literal).filter { selector in
            let last = lastStep(of: selector)
            return last.combinator != nil || childPseudoClasses.contains { last.compound.lowercased().contains($0) }
        }
        return kept.isEmpty ? nil : kept.joined(separator: ", ")
    }

    /// `text` split at its top-level commas, trimmed, empty parts dropped.
    static func splitList(_ text: String) -> [String] {
        var parts: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            if character == "(" || character == "[" { depth += 1 }
            if character == ")" || character == "]" { depth -= 1 }
            if character == ",", depth == 0 {
                parts.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current)
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The last compound of a complex selector and the combinator before it (`>`, `+`, `~`;
    /// nil for a descendant combinator or none).
    static func lastStep(of selector: String) -> (compound: String, combinator: Character?) {
        var depth = 0
        var characters = Array(selector)
        var start = characters.count
        while start > 0 {
            let character = characters[start - 1]
            if character == ")" || character == "]" { depth += 1 }
            if character == "(" || character == "[" { depth -= 1 }
            if depth == 0, character == " " || character == ">" || character == "+" || character == "~" { break }
            start -= 1
        }
        let compound = String(characters[start...])
        characters = Array(characters[..<start])
        while let last = characters.last, last == " " { characters.removeLast() }
        guard let last = characters.last, last == ">" || last == "+" || last == "~" else { return (compound, nil) }
        return (compound, last)
    }

    /// Where `needle` (lowercase ASCII) starts in `bytes` from `start`, ignoring ASCII case.
    private static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        outer: for index in start...(bytes.count - pattern.count) {
            for (offset, byte) in pattern.enumerated() where bytes[index + offset] | 0x20 != byte | 0x20 {
                continue outer
            }
            return index
        }
        return nil
    }
}
