import Foundation

/// The links and headings of one Markdown file, read the way GitHub renders it: fenced code blocks
/// and inline code hold no links or headings, and a heading's anchor is its GitHub slug.
/// Used to check that the documentation's relative links lead somewhere.
struct MarkdownLinks {
    /// A link's target as written (`build.md#sizes`, `#operations`, `../bench/JOURNAL.md`), with its line.
    struct Link: Equatable {
        let target: String
        let line: Int
    }

    let links: [Link]
    /// Every heading's anchor, duplicates numbered as GitHub numbers them (`targets`, `targets-1`).
    let anchors: Set<String>

    init(_ text: String) {
        let prose = Self.withoutFencedCode(text)
        anchors = Self.anchors(ofHeadingsIn: prose)
        links = Self.links(in: Self.withoutInlineCode(prose))
    }

    /// GitHub's heading slug: lowercase, punctuation other than `-` and `_` dropped, each space a `-`.
    static func slug(_ heading: String) -> String {
        let kept = heading.trimmingCharacters(in: .whitespaces).lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" || $0 == " "
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }

    /// Whether a target leaves the repository (a web page or a mail address) rather than naming a file.
    static func isExternal(_ target: String) -> Bool {
        target.contains("://") || target.hasPrefix("mailto:")
    }

    /// The text with the lines of fenced code blocks (``` or ~~~, indented or not) blanked, so line numbers stay.
    static func withoutFencedCode(_ text: String) -> String {
        var fence: String?
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let trimmed = line.drop { $0 == " " }
            let marker = trimmed.hasPrefix("```") ? "```" : trimmed.hasPrefix("~~~") ? "~~~" : nil
            if let open = fence {
                if marker == open { fence = nil }
                return ""
            }
            if let marker {
                fence = marker
                return ""
            }
            return String(line)
        }.joined(separator: "\n")
    }

    /// The text with each inline code span (which may run over a line break) replaced by nothing but its line breaks.
    static func withoutInlineCode(_ text: String) -> String {
        var result = ""
        var inCode = false
        for character in text {
            if character == "`" {
                inCode.toggle()
            } else if !inCode || character == "\n" {
                result.append(character)
            }
        }
        return result
    }

    static func anchors(ofHeadingsIn prose: String) -> Set<String> {
        var counts: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in prose.split(separator: "\n") {
            let hashes = line.prefix { $0 == "#" }.count
            guard (1...6).contains(hashes), line.dropFirst(hashes).first == " " else { continue }
            let slug = Self.slug(String(line.dropFirst(hashes + 1)))
            let seen = counts[slug, default: 0]
            counts[slug] = seen + 1
            anchors.insert(seen == 0 ? slug : "\(slug)-\(seen)")
        }
        return anchors
    }

    /// `[text](target)` and `![alt](target)`; the text may run over a line break.
    static func links(in prose: String) -> [Link] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)(?:\s+"[^"]*")?\)"#)
        let range = NSRange(prose.startIndex..., in: prose)
        return pattern.matches(in: prose, range: range).compactMap { match in
            guard let targetRange = Range(match.range(at: 1), in: prose) else { return nil }
            let line = prose[..<targetRange.lowerBound].filter { $0 == "\n" }.count + 1
            return Link(target: String(prose[targetRange]), line: line)
        }
    }
}
