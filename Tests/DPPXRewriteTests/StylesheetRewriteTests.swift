import DPPXCore
@testable import DPPXRewrite
import Testing

/// Stylesheets get an `image-set()` after each background of a density image, the original
/// kept before it as the fallback.
@Suite struct StylesheetRewriteTests {
    @Test func theGoldenStylesheet() throws {
        let css = try HTMLRewriteTests.golden("site.css")
        let result = RewriteFixtures.rewriter().rewriteCSS(css, at: "css/site.css")
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: try HTMLRewriteTests.expected("site.rewritten.css", actual: result.bytes), as: UTF8.self))
        #expect(result.findings.map(\.description) == [
            "css/site.css:9: url(../img/photo.jpg) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it",
        ])
    }

    @Test func aDeclarationEndingTheBlockGetsItsSemicolon() {
        #expect(RewriteFixtures.css(".a{background:url(img/logo.png)}", at: "x.css").text
            == #".a{background:url(img/logo.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#)
    }

    @Test func theStylesOfTheGoldenPage() throws {
        let page = try HTMLRewriteTests.golden("styles.html")
        let result = RewriteFixtures.rewriter().rewriteHTML(page, at: "blog/styles.html")
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: try HTMLRewriteTests.expected("styles.rewritten.html", actual: result.bytes), as: UTF8.self))
        #expect(result.findings.map(\.description) == [
            "blog/styles.html:11: url(../img/photo.jpg) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it",
            "blog/styles.html:23: url(../img/photo.jpg) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it",
        ])
        #expect(result.imagesRewritten == 14, "13 background images (two in one background) and the <img>")
        #expect(RewriteFixtures.rewriter().rewriteHTML(result.bytes, at: "blog/styles.html").bytes == result.bytes, "a second run changes nothing")
    }

    @Test func aStyleAttributeKeepsItsQuoteAndItsOtherBytes() {
        #expect(RewriteFixtures.html(#"<p style="background:url(img/logo.png)">"#).text
            == #"<p style="background:url(img/logo.png); background-image: image-set(url('img/logo.png') 1x, url('img/logo@2x.png') 2x)">"#)
        #expect(RewriteFixtures.html(#"<p style='background:url(img/logo.png);'>"#).text
            == #"<p style='background:url(img/logo.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x);'>"#)
        #expect(RewriteFixtures.html(#"<p style=background:url(img/logo.png) id=a>"#).text
            == #"<p style="background:url(img/logo.png); background-image: image-set(url('img/logo.png') 1x, url('img/logo@2x.png') 2x)" id=a>"#)
        // A URL with `&` in a query is escaped where it is added.
        let query = RewriteFixtures.html(#"<p style="background:url('img/logo.png?v=1&amp;w=2')">"#)
        #expect(query.text == #"<p style="background:url('img/logo.png?v=1&amp;w=2'); background-image: image-set(url('img/logo.png?v=1&amp;w=2') 1x, url('img/logo@2x.png') 2x)">"#, "\(query.text)")
        #expect(RewriteFixtures.html(query.text).text == query.text, "a second run changes nothing")
    }

    @Test func aStyleElementIsRewrittenAsAStylesheetIs() {
        let css = ".a {\n  background: url(img/logo.png);\n}\n"
        let page = RewriteFixtures.html("<style>\(css)</style>", at: "index.html").text
        #expect(page == "<style>" + RewriteFixtures.css(css, at: "index.html").text + "</style>")
        let crlf = RewriteFixtures.html("<p>a</p>\r\n<style>\r\n.a {\r\n  background: url(img/logo.png);\r\n}\r\n</style>", at: "index.html").text
        #expect(crlf.contains("url(img/logo.png);\r\n  background-image: image-set("), "\(crlf)")
        let unclosed = RewriteFixtures.html("<style>.a{background:url(img/logo.png)}", at: "index.html").text
        #expect(unclosed.hasSuffix("background-image: image-set(url(\"img/logo.png\") 1x, url(\"img/logo@2x.png\") 2x)}"), "\(unclosed)")
    }

    @Test("a URL whose escapes decode to </style><script> is written back escaped: the page, parsed again, has the one <style> it had and no script")
    func textWrittenIntoAStyleCannotEndIt() throws {
        let hostile = #"<style>.a{background:url("img/logo.png?\3c/style\3e\3cscript\3e alert(1)\3c/script\3e")}</style><p>after</p>"#
        let result = RewriteFixtures.rewriter().rewriteHTML(Array(hostile.utf8), at: "index.html")
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.contains("image-set(") && result.imagesRewritten == 1, "the image still gets its candidates: \(text)")
        #expect(!text.contains("<script") && !text.contains("</style><script"), "\(text)")
        let sheets = HTMLPage(parsing: result.bytes).styleSheets
        let sheet = try #require(sheets.count == 1 ? sheets.first : nil, "\(sheets): \(text)")
        #expect(Array(result.bytes[sheet.upperBound...]) == Array("</style><p>after</p>".utf8), "the <style> ends where the page ended it: \(text)")
        #expect(!result.bytes[sheet].contains(UInt8(ascii: "<")), "\(text)")
        #expect(RewriteFixtures.rewriter().rewriteHTML(result.bytes, at: "index.html").bytes == result.bytes, "a second run changes nothing")
        #expect(PageRewriter.escapeStyleText("a</style>") == #"a\3c /style>"#)
    }

    @Test func brokenStylesheetsDoNotCrash() {
        for text in ["", "{", "}", "a{background:url(", "a{background:url('img/logo.png", "/* unclosed", "\"", "a{b:c;;;}", "@media{{{"] {
            _ = RewriteFixtures.css(text)
        }
    }
}
