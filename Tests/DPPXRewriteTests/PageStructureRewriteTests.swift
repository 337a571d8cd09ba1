import DPPXCore
@testable import DPPXRewrite
import Testing

/// What the HTML parser does with a page's structure never makes a second edit or loses a
/// byte: copies of misnested elements, CRLF in attributes, `<base href>`.
@Suite struct PageStructureRewriteTests {
    @Test func aMisnestedElementCopiedByTheParserIsRewrittenOnce() {
        let bold = RewriteFixtures.rewriter().rewriteHTML(Array(#"<p><b style="background:url(img/logo.png)">bold<p>more</b>"#.utf8), at: "index.html")
        #expect(String(decoding: bold.bytes, as: UTF8.self)
            == #"<p><b style="background:url(img/logo.png); background-image: image-set(url('img/logo.png') 1x, url('img/logo@2x.png') 2x)">bold<p>more</b>"#)
        #expect(bold.imagesRewritten == 1)
        let link = RewriteFixtures.rewriter().rewriteHTML(Array(#"<a href="/" style="background:url(img/logo.png)"><div>x</a>y</div><img src="img/logo.png">"#.utf8), at: "index.html")
        #expect(String(decoding: link.bytes, as: UTF8.self).components(separatedBy: "image-set(").count == 2)
        #expect(link.imagesRewritten == 2, "the background once and the <img>")
    }

    @Test func crlfInAMultiLineStyleAttributeIsKept() {
        let page = "<div style=\"color: red;\r\n  background: url(img/logo.png);\r\n  width: 10px\">x</div>"
        let result = RewriteFixtures.html(page)
        #expect(result.text == "<div style=\"color: red;\r\n  background: url(img/logo.png);\r\n  background-image: image-set(url('img/logo.png') 1x, url('img/logo@2x.png') 2x);\r\n  width: 10px\">x</div>")
        #expect(RewriteFixtures.html(result.text).text == result.text, "a second run changes nothing")
    }

    @Test func urlsResolveAgainstTheBaseHref() {
        let page = #"<head><base href="/img/"></head><img src="logo.png"><p style="background:url(logo.png)">"#
        let result = RewriteFixtures.html(page, at: "blog/post.html").text
        #expect(result.contains(#"<img src="logo.png" srcset="logo.png 1x, logo@2x.png 2x">"#), "\(result)")
        #expect(result.contains(#"background-image: image-set(url('logo.png') 1x, url('logo@2x.png') 2x)"#), "\(result)")
        #expect(RewriteFixtures.html(#"<base href="../"><img src="img/logo.png">"#, at: "blog/post.html").text.contains("srcset="))
        #expect(RewriteFixtures.html(#"<base href="https://cdn.example.com/img/x.html"><img src="logo.png">"#, at: "a/b.html",
                                     RewriteOptions(baseURL: "https://cdn.example.com")).text.contains(#"srcset="logo.png 1x, logo@2x.png 2x""#))
        // The first base with an href counts; one elsewhere sends relative URLs off the site.
        let off = RewriteFixtures.html(#"<base target="_top"><base href="https://other.example/"><base href="/"><img src="img/logo.png">"#)
        #expect(!off.text.contains("srcset="))
        #expect(off.findings == [#"index.html:1: <base href="https://other.example/"> is neither under the root nor under --base-url: the page's relative URLs are not the site's files, so its images are left as they are (pass --base-url with the site's address)"#])
        // Without a base, the page's own folder.
        #expect(!RewriteFixtures.html(#"<img src="logo.png">"#, at: "blog/post.html").text.contains("srcset="))
    }
}
