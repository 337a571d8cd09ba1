/// The entity tags of an `If-None-Match` or `If-Range` header: `"abc", W/"def"` or `*`.
///
/// `If-None-Match` compares weakly (a `W/` prefix is ignored); `If-Range` needs a strong match.
struct EntityTagList {
    /// The tags' opaque parts with their quotes (`"abc"`), and whether each was weak.
    let tags: [(opaque: Substring, weak: Bool)]
    /// `*`: any current representation matches.
    let isWildcard: Bool

    init(_ lines: [String]) {
        var tags: [(Substring, Bool)] = []
        var wildcard = false
        for line in lines {
            for piece in line.split(separator: ",") {
                var tag = piece.drop { $0 == " " || $0 == "\t" }
                while let last = tag.last, last == " " || last == "\t" { tag.removeLast() }
                if tag == "*" { wildcard = true; continue }
                let weak = tag.hasPrefix("W/")
                if weak { tag = tag.dropFirst(2) }
                guard tag.count >= 2, tag.first == "\"", tag.last == "\"" else { continue }
                tags.append((tag, weak))
            }
        }
        self.tags = tags
        self.isWildcard = wildcard
    }

    /// `If-None-Match` semantics: `*`, or any tag with the same opaque part as `etag`.
    func weaklyMatches(_ etag: String) -> Bool {
        let opaque = etag.hasPrefix("W/") ? Substring(etag.dropFirst(2)) : Substring(etag)
        return isWildcard || tags.contains { $0.opaque == opaque }
    }
}
