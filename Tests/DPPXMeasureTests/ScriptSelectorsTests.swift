@testable import DPPXMeasure
import Testing

@Suite("the selectors of a page's scripts that name an element's place among its parent's children")
struct ScriptSelectorsTests {
    static func scan(_ source: String, name: String = "js/site.js") -> [String] {
        ScriptSelectors.of([(name, Array(source.utf8))]).map(\.selector)
    }

    @Test("a child combinator onto the last step, and child-position pseudo-classes, are found in each kind of string")
    func found() {
        #expect(Self.scan(#"document.querySelectorAll(".card > img").forEach(f)"#) == [".card > img"])
        #expect(Self.scan("$('.grid>img'); el.closest(`ul li:first-child`)") == [".grid>img", "ul li:first-child"])
        #expect(Self.scan(#"q('h2 + img'); q("figure ~ .photo"); q('img:nth-of-type(2)')"#) == ["h2 + img", "figure ~ .photo", "img:nth-of-type(2)"])
        // Of a list, the selectors that depend on the place only; an escaped quote stays inside.
        #expect(Self.scan(#"q(".a img, .b > img, [data-x='y \' z'] img")"#) == [".b > img"])
    }

    @Test("descendant selectors, markup, arrow functions, comments, templates with ${} and long or multi-line strings are not")
    func notFound() {
        #expect(Self.scan(#"q(".card img"); q('.card > a img')"#) == [])
        #expect(Self.scan(#"el.innerHTML = "<div>a > b</div>"; f = (x) => "x > y" ; g('a => b > c')"#) == ["x > y"])
        #expect(Self.scan("// q('.card > img')\n/* q(\".grid > img\") */ q(`.a > ${tag}`)") == [])
        #expect(Self.scan("q('" + String(repeating: "a", count: 300) + " > img')") == [])
        #expect(Self.scan("q(`.a >\nimg`)") == [])
        // An apostrophe in a comment opens no string.
        #expect(Self.scan("// don't\nq('.c > img')") == [".c > img"])
    }

    @Test("the same selector twice is one, named by the first script; at most 64 are kept")
    func bounded() {
        let found = ScriptSelectors.of([("index.html", Array("q('.a > img')".utf8)), ("js/a.js", Array("q('.a > img'); q('.b > img')".utf8))])
        #expect(found.map(\.selector) == [".a > img", ".b > img"])
        #expect(found.map(\.script) == ["index.html", "js/a.js"])
        let many = (0..<100).map { "q('.c\($0) > img');" }.joined()
        #expect(Self.scan(many).count == ScriptSelectors.maximumCount)
    }

    @Test("the inline scripts of a page: what follows each <script> tag up to </script, in any case")
    func inline() {
        let page = Array(#"<p>a > b</p><script>q('.a > img')</script><SCRIPT type="module">q("b")</Script><script src="x.js"></script>"#.utf8)
        let scripts = ScriptSelectors.inlineScripts(of: page).map { String(decoding: $0, as: UTF8.self) }
        #expect(scripts == ["q('.a > img')", #"q("b")"#, ""])
    }
}
