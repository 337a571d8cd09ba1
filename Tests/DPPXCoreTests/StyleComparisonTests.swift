import DPPXCore
import Testing

@Suite("comparing the computed styles of a page's images, as checking a <picture> wrapper does")
struct StyleComparisonTests {
    /// Two images at 320 and 1280 px: the first's style `a` (its holder `h`), the second's `b`
    /// (holder `h`), unless `samples` says otherwise.
    static func styles(_ samples: [[(image: String, holder: String)]] = [[("a", "h"), ("a", "h")], [("b", "h"), ("b", "h")]],
                       properties: [String: [String: UInt32]]) -> ImageStyles {
        ImageStyles(samples: Dictionary(uniqueKeysWithValues: samples.enumerated().map { index, pairs in
            (100 * index, zip([320.0, 1280], pairs).map { ImageStyles.Sample(viewport: $0, image: $1.image, holder: $1.holder) })
        }), properties: properties)
    }

    static let table: [String: [String: UInt32]] = [
        "a": ["width": 1, "object-fit": 2, "display": 3],
        "b": ["width": 1, "object-fit": 5, "display": 3],
        "h": ["display": 7, "width": 8],
    ]

    @Test("the same hashes everywhere: no image changed")
    func same() {
        let styles = Self.styles(properties: Self.table)
        #expect(StyleComparison.changes(before: styles, after: styles).isEmpty)
    }

    @Test("a selector that stops matching: the properties that differ are named, at the first viewport where they do")
    func named() throws {
        let before = Self.styles(properties: Self.table)
        // Out of `.card > img`, the second image's width is `auto` at 1280 px, and its object-fit too.
        var table = Self.table
        table["c"] = ["width": 9, "object-fit": 6, "display": 3]
        let after = Self.styles([[("a", "h"), ("a", "h")], [("b", "h"), ("c", "h")]], properties: table)
        let changes = StyleComparison.changes(before: before, after: after)
        #expect(changes.keys.sorted() == [1])
        let change = try #require(changes[1])
        #expect(change.viewport == 1280)
        #expect(change.properties == [StyleComparison.Property(.image, "object-fit"), StyleComparison.Property(.image, "width")])
        #expect(change.description == "its computed `object-fit` and `width` changed at a 1280 px viewport")
    }

    @Test("the rule behind a change is named: one setting a changed property that matched before and no longer does, else one that matches now")
    func culprit() throws {
        var before = Self.styles(properties: Self.table)
        var table = Self.table
        table["c"] = ["width": 9, "object-fit": 5, "display": 3]
        var after = Self.styles([[("a", "h"), ("a", "h")], [("c", "h"), ("c", "h")]], properties: table)
        // A rule of the holder's and one setting another property are not it.
        before.rules[100] = [ImageStyles.Rule(holder: true, selector: ".grid:has(> img)", properties: ["width"]),
                             ImageStyles.Rule(holder: false, selector: ".grid > img:first-child", properties: ["margin-top"]),
                             ImageStyles.Rule(holder: false, selector: ".grid > img", properties: ["width", "height"])]
        after.rules[100] = [ImageStyles.Rule(holder: true, selector: ".grid:has(> img)", properties: ["width"])]
        let change = try #require(StyleComparison.changes(before: before, after: after)[1])
        #expect(change.rule == StyleComparison.Culprit(selector: ".grid > img", matchedBefore: true))
        #expect(change.description == "its computed `width` changed at a 320 px viewport (`.grid > img` no longer matches)")
        // A rule that only the rewritten page's image matches.
        before.rules[100] = []
        after.rules[100] = [ImageStyles.Rule(holder: false, selector: "picture > img", properties: ["width"])]
        #expect(StyleComparison.changes(before: before, after: after)[1]?.description
                == "its computed `width` changed at a 320 px viewport (`picture > img` matches it now)")
        // None that sets the property: the properties only.
        after.rules[100] = [ImageStyles.Rule(holder: false, selector: "picture > img", properties: ["opacity"])]
        #expect(StyleComparison.changes(before: before, after: after)[1]?.rule == nil)
    }

    @Test("the holder's style is compared too (a `.card:has(> img)` that stops matching), and told as its parent's")
    func holder() throws {
        let before = Self.styles(properties: Self.table)
        var table = Self.table
        table["g"] = ["display": 11, "width": 8]
        let after = Self.styles([[("a", "g"), ("a", "h")], [("b", "h"), ("b", "h")]], properties: table)
        let change = try #require(StyleComparison.changes(before: before, after: after)[0])
        #expect(change.properties == [StyleComparison.Property(.holder, "display")])
        #expect(change.description == "its parent's computed `display` changed at a 320 px viewport")
    }

    @Test("what two untouched loads disagree on (an animation) is set aside, property by property")
    func jitter() {
        let before = Self.styles(properties: Self.table)
        var table = Self.table
        table["a2"] = ["width": 1, "object-fit": 2, "display": 3, "opacity": 4]
        table["a3"] = ["width": 12, "object-fit": 2, "display": 3, "opacity": 13]
        let again = Self.styles([[("a2", "h"), ("a", "h")], [("b", "h"), ("b", "h")]], properties: table)
        let setAside = StyleComparison.jitter(between: before, and: again)
        #expect(setAside == [0: [StyleComparison.Property(.image, "opacity")]])
        // Opacity differs again (set aside), and the width too: the width is named.
        let after = Self.styles([[("a3", "h"), ("a", "h")], [("b", "h"), ("b", "h")]], properties: table)
        #expect(StyleComparison.changes(before: before, after: after, setAside: setAside)[0]?.properties == [StyleComparison.Property(.image, "width")])
        let onlyOpacity = Self.styles([[("a2", "h"), ("a", "h")], [("b", "h"), ("b", "h")]], properties: table)
        #expect(StyleComparison.changes(before: before, after: onlyOpacity, setAside: setAside).isEmpty)
    }

    @Test("a hash whose properties were not tabled differs as a whole; more than four properties are counted, not listed")
    func untabled() throws {
        let before = Self.styles(properties: Self.table)
        let after = Self.styles([[("z", "h"), ("a", "h")], [("b", "h"), ("b", "h")]], properties: Self.table)
        #expect(StyleComparison.changes(before: before, after: after)[0]?.description == "its computed style changed at a 320 px viewport")
        let many = ["a": Dictionary(uniqueKeysWithValues: (0..<6).map { ("p\($0)", UInt32(0)) }),
                    "b": Dictionary(uniqueKeysWithValues: (0..<6).map { ("p\($0)", UInt32(1)) }), "h": [:]]
        let change = try #require(StyleComparison.changes(before: Self.styles([[("a", "h"), ("a", "h")]], properties: many),
                                                           after: Self.styles([[("b", "h"), ("b", "h")]], properties: many))[0])
        #expect(change.description == "its computed `p0`, `p1`, `p2` and `p3` (and 2 more) changed at a 320 px viewport")
    }
}
