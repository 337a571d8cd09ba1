/// Lists the tags of a Mustache template with their line numbers, so variables and partials
/// can be checked against what dppx provides before anything is rendered (Mustache itself
/// renders an unknown name as nothing, which hides typos).
struct TemplateScanner {
    /// One `{{...}}` tag.
    struct Tag: Hashable {
        enum Kind: Hashable {
            /// `{{name}}`, `{{{name}}}`, `{{&name}}`, `{{#name}}`, `{{^name}}`, `{{/name}}`.
            case variable
            /// `{{>name}}`, `{{<name}}`.
            case partial
            /// `{{%PRAGMA}}`.
            case pragma
            /// Comments and block tags: nothing to check.
            case other
        }

        let kind: Kind
        /// The looked-up name (first component of a dotted name, innermost of a transform);
        /// empty for `.`, sequence transforms such as `first()`, and comments.
        let name: String
        let text: String
        let line: Int
    }

    /// The tags, or nil when the template changes its delimiters (`{{=<% %>=}}`), which this
    /// scanner does not follow; such templates are rendered unchecked.
    static func tags(in template: String) -> [Tag]? {
        let chars = Array(template)
        var tags: [Tag] = []
        var index = 0
        var line = 1
        while index + 1 < chars.count {
            if chars[index] == "\n" { line += 1 }
            guard chars[index] == "{", chars[index + 1] == "{" else {
                index += 1
                continue
            }
            let triple = index + 2 < chars.count && chars[index + 2] == "{"
            let start = index + (triple ? 3 : 2)
            let closing: [Character] = triple ? ["}", "}", "}"] : ["}", "}"]
            guard let end = find(closing, in: chars, from: start) else { break }
            let body = String(chars[start..<end]).trimmingSpaces()
            let tagLine = line
            line += chars[start..<end].filter { $0 == "\n" }.count
            index = end + closing.count
            guard let tag = classify(body, triple: triple, line: tagLine) else { return nil }
            tags.append(tag)
        }
        return tags
    }

    private static func classify(_ body: String, triple: Bool, line: Int) -> Tag? {
        if triple { return Tag(kind: .variable, name: lookupName(body), text: body, line: line) }
        guard let sigil = body.first else { return Tag(kind: .variable, name: "", text: body, line: line) }
        let rest = String(body.dropFirst()).trimmingSpaces()
        switch sigil {
        case "=": return nil
        case "!", "$": return Tag(kind: .other, name: "", text: body, line: line)
        case "%": return Tag(kind: .pragma, name: rest, text: body, line: line)
        case ">", "<": return Tag(kind: .partial, name: rest, text: body, line: line)
        case "#", "^", "/", "&": return Tag(kind: .variable, name: lookupName(rest), text: body, line: line)
        default: return Tag(kind: .variable, name: lookupName(body), text: body, line: line)
        }
    }

    /// `hero.url` -> `hero`; `uppercased(name)` -> `name`; `first()` and `.` -> `""`.
    private static func lookupName(_ text: String) -> String {
        var name = Substring(text)
        if let open = name.lastIndex(of: "(") {
            name = name[name.index(after: open)...]
            if let close = name.firstIndex(of: ")") { name = name[..<close] }
        }
        if name == "." || name.isEmpty { return "" }
        if name.first == "." { name = name.dropFirst() }
        return String(name.split(separator: ".").first ?? "")
    }

    private static func find(_ needle: [Character], in chars: [Character], from start: Int) -> Int? {
        var index = start
        while index + needle.count <= chars.count {
            if Array(chars[index..<index + needle.count]) == needle { return index }
            index += 1
        }
        return nil
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text.removeFirst() }
        while let last = text.last, last.isWhitespace { text.removeLast() }
        return String(text)
    }
}
