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
            "css/site.css:12: background has 2 images; only a single image is given an image-set(), left as it is",
        ])
    }

    @Test func aDeclarationEndingTheBlockGetsItsSemicolon() {
        #expect(RewriteFixtures.css(".a{background:url(img/logo.png)}", at: "x.css").text
            == #".a{background:url(img/logo.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#)
    }

    @Test func brokenStylesheetsDoNotCrash() {
        for text in ["", "{", "}", "a{background:url(", "a{background:url('img/logo.png", "/* unclosed", "\"", "a{b:c;;;}", "@media{{{"] {
            _ = RewriteFixtures.css(text)
        }
    }
}
