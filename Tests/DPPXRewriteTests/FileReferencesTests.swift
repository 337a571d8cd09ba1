import DPPXRewrite
import Testing

/// What a page or a stylesheet names of the site's own files, as `dppx init` reads them to find
/// where a site keeps its images.
@Suite struct FileReferencesTests {
    @Test("a page: <img> src and srcset, <picture> sources, <style> and style urls, stylesheet links; other sites and data: URLs left out")
    func page() {
        let html = """
        <!doctype html><html><head>
        <link rel="stylesheet" href="../css/site.css"><link rel="icon" href="/favicon.png"><LINK REL="Alternate Stylesheet" href="/css/dark.css">
        <style>.hero { background: url("../img/hero.jpg") } /* url(commented.jpg) */</style>
        </head><body>
        <img src="../img/a.jpg?v=2" srcset="../img/a.jpg 1x, ../img/a@2x.jpg 2x">
        <picture><source srcset="/img/b.avif 1x" type="image/avif"><img src="/img/b.jpg"></picture>
        <div style="background-image: url(../img/c.png)"></div>
        <img src="https://cdn.example.com/x.jpg"><img src="data:image/png;base64,AAAA"><img src="../img/a.jpg">
        </body></html>
        """
        let references = FileReferences(page: Array(html.utf8), path: "blog/post.html")
        #expect(references.images == ["img/a.jpg", "img/a@2x.jpg", "img/b.jpg", "img/b.avif", "img/hero.jpg", "img/c.png"])
        #expect(references.stylesheets == ["css/site.css", "css/dark.css"])
    }

    @Test("a page with <base href>: its relative URLs start there")
    func base() {
        let references = FileReferences(page: Array(#"<base href="/docs/"><img src="img/a.jpg">"#.utf8), path: "index.html")
        #expect(references.images == ["docs/img/a.jpg"])
    }

    @Test("a stylesheet: the url()s of its declarations, and its @imports in both spellings; comments skipped")
    func stylesheet() {
        let css = """
        @import url("base.css") screen;
        @IMPORT 'theme/dark.css';
        /* @import "commented.css"; */
        .a { background: linear-gradient(#000, #fff), url(../img/a.jpg) center / cover }
        .b { list-style-image: url('/img/dot.png'); content: "url(not.png)" }
        """
        let references = FileReferences(stylesheet: Array(css.utf8), path: "css/site.css")
        #expect(references.images == ["img/a.jpg", "img/dot.png"])
        #expect(references.stylesheets == ["css/base.css", "css/theme/dark.css"])
        #expect(FileReferences.sitePath(of: "../img/a.jpg#x", inPage: "blog/post.html") == "img/a.jpg")
        #expect(FileReferences.sitePath(of: "//other.example/a.jpg", inPage: "index.html") == nil)
    }
}
