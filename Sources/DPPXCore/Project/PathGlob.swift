/// A path pattern of a project-file rule, matched against a master's path relative to the
/// source folder: `*` is any run of characters within a folder name, `?` one character, `**` any
/// number of whole folders (`photos/**` is everything under `photos`). A pattern without `/`
/// matches the file name in any folder (`*.png`), as in `.gitignore`; `/hero.jpg` only the
/// one at the top.
public struct PathGlob: Hashable, Sendable, Codable, CustomStringConvertible {
    public let pattern: String
    private let segments: [Substring]
    private let anywhere: Bool

    public init(_ pattern: String) {
        self.pattern = pattern
        var body = Substring(pattern)
        while body.hasPrefix("./") { body = body.dropFirst(2) }
        // A leading `/` anchors a pattern to the source folder, as in `.gitignore`.
        anywhere = !body.contains("/")
        if body.hasPrefix("/") { body = body.dropFirst() }
        segments = body.split(separator: "/", omittingEmptySubsequences: true)
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(pattern)
    }

    public var description: String { pattern }

    /// Whether `path` (relative, with `/`) matches.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        if anywhere, let name = parts.last, let only = segments.first, segments.count == 1 {
            return only == "**" || Self.matches(name: name, pattern: only)
        }
        return Self.matches(parts[...], segments[...])
    }

    private static func matches(_ parts: ArraySlice<Substring>, _ patterns: ArraySlice<Substring>) -> Bool {
        guard let first = patterns.first else { return parts.isEmpty }
        if first == "**" {
            let rest = patterns.dropFirst()
            var remaining = parts
            while true {
                if matches(remaining, rest) { return true }
                guard !remaining.isEmpty else { return false }
                remaining = remaining.dropFirst()
            }
        }
        guard let part = parts.first, matches(name: part, pattern: first) else { return false }
        return matches(parts.dropFirst(), patterns.dropFirst())
    }

    /// `*` and `?` within one folder or file name.
    private static func matches(name: Substring, pattern: Substring) -> Bool {
        let name = Array(name), pattern = Array(pattern)
        var n = 0, p = 0, starP = -1, starN = 0
        while n < name.count {
            if p < pattern.count && (pattern[p] == "?" || pattern[p] == name[n]) {
                n += 1; p += 1
            } else if p < pattern.count && pattern[p] == "*" {
                starP = p; starN = n; p += 1
            } else if starP >= 0 {
                p = starP + 1; starN += 1; n = starN
            } else {
                return false
            }
        }
        while p < pattern.count && pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
