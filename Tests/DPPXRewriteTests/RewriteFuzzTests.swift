import DPPXCore
@testable import DPPXRewrite
import Testing

/// Thousands of pages and stylesheets made of random pieces of markup (`<style>` and `style`
/// attributes among them): the rewriter never crashes, only adds bytes, and a second run
/// changes nothing.
@Suite struct RewriteFuzzTests {
    static let htmlPieces = [
        "<img src=\"img/logo.png\">", "<IMG SRC=img/hero.jpg ", "<img src='/img/photo.jpg' width=300>", "<img srcset=\"x 2x\" src=img/logo.png>",
        "<picture>", "</picture>", "<source srcset=\"img/hero.webp\" type=\"image/webp\">", "<template>", "</template>", "<noscript>",
        "<!--", "-->", "<![CDATA[", "]]>", "<svg>", "</svg>", "<script>", "</script>", "<style>", "</style>", "\"", "'", "<", ">", "/>",
        "=", " ", "\r\n", "\u{FEFF}", "é", "&amp;", "&", "<div>", "</div>", "<p>", "<table><tr><td>", "sizes=\"50vw\"", "alt",
        // Inline CSS: <style> text and style attributes, quoted every way, with references.
        "<p style=\"background:url(img/logo.png)\">", "<div style='background-image: url(\"/img/hero.jpg\")'>",
        "<b style=background:url(img/logo.png)>", "style=\"background: url(&quot;img/hero.jpg&quot;) !important;\"",
        "<img src=img/logo.png style=\"background:url(img/hero.jpg)\">", ".a{background:url(img/logo.png)}", "background-image:url(",
        "img/hero.jpg);", "&#39;", "&quot;", "}", ";", "/*", "*/",
    ]
    static let cssPieces = [
        "a{", "}", "background:", "background-image:", "url(", ")", "url(\"../img/logo.png\")", "url(img/hero.jpg)", ";", "/*", "*/",
        "\"", "'", "@media (min-width: 1px) {", "image-set(", "!important", "\\", "\n", " ", "data:image/png;base64,AAA", ",",
    ]

    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test func randomPagesNeverCrashAndSettleAfterOneRun() {
        var generator = Generator(state: 22)
        let rewriter = RewriteFixtures.rewriter(RewriteOptions(picture: true))
        for _ in 0..<2000 {
            let html = (0..<generator.next(30)).map { _ in Self.htmlPieces[generator.next(Self.htmlPieces.count)] }.joined()
            let once = rewriter.rewriteHTML(Array(html.utf8), at: "index.html").bytes
            #expect(once.count >= html.utf8.count)
            #expect(rewriter.rewriteHTML(once, at: "index.html").bytes == once, "\(html)")
            let css = (0..<generator.next(30)).map { _ in Self.cssPieces[generator.next(Self.cssPieces.count)] }.joined()
            let styled = rewriter.rewriteCSS(Array(css.utf8), at: "css/site.css").bytes
            #expect(styled.count >= css.utf8.count)
            #expect(rewriter.rewriteCSS(styled, at: "css/site.css").bytes == styled, "\(css)")
        }
    }
}
