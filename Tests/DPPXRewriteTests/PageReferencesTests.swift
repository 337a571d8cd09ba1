import DPPXRewrite
import Testing

/// The site's files a page or stylesheet names: what must be on disk for it to show its images.
@Suite("the files a page names")
struct PageReferencesTests {
    static func paths(_ text: String, at page: String = "blog/post.html", html: Bool = true, baseURL: String? = nil) -> [String] {
        PageReferences.references(in: Array(text.utf8), at: page, isHTML: html, baseURL: baseURL).map(\.path)
    }

    @Test("an <img>'s src and every srcset candidate, a <picture>'s sources, <style> and style url()s, resolved against the page")
    func html() {
        let page = """
        <style>.hero { background: url(../img/hero.jpg); background-image: image-set(url("../img/hero@2x.jpg") 2x) }</style>
        <picture><source type="image/avif" srcset="../img/a.avif 1x, ../img/a@2x.avif 2x"><img src="../img/a.jpg" srcset="../img/a.jpg 1x, ../img/a@2x.jpg 2x"></picture>
        <div style="background-image: url('/img/b.png')"></div>
        <img src="data:image/gif;base64,R0lGOD" srcset="https://cdn.example.com/c.jpg 2x"><img src="//example.com/d.jpg">
        <img src="../../above.jpg">
        """
        #expect(Self.paths(page) == ["img/a.jpg", "img/a.jpg", "img/a@2x.jpg", "img/a.avif", "img/a@2x.avif",
                                     "img/hero.jpg", "img/hero@2x.jpg", "img/b.png"])
    }

    @Test("a <base href> and the site's own absolute address are the site's files; lines are counted")
    func baseAndLines() {
        #expect(Self.paths(#"<base href="/assets/"><img src="x.jpg">"#) == ["assets/x.jpg"])
        #expect(Self.paths(#"<img src="https://example.com/img/x.jpg">"#, baseURL: "https://example.com/") == ["img/x.jpg"])
        let lines = PageReferences.references(in: Array("<p>\n<img src=\"a.jpg\">\n".utf8), at: "index.html", isHTML: true).map(\.line)
        #expect(lines == [2])
    }

    @Test("a stylesheet's url()s, in @media blocks too, relative to the stylesheet")
    func stylesheet() {
        let css = """
        .a { background: url(../img/a.jpg) }
        @media (min-width: 768px) { .a { background-image: image-set(url("../img/a-800w.jpg") 1x) } }
        """
        #expect(Self.paths(css, at: "css/site.css", html: false) == ["img/a.jpg", "img/a-800w.jpg"])
    }
}
