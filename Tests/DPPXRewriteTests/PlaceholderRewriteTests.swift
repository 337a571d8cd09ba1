import DPPXCore
import Foundation
@testable import DPPXRewrite
import Testing

/// `--placeholder`: a rewritten `<img>` gets its image's placeholder as the inline style
/// `dppx html --placeholder` writes, unless it has a style of its own.
@Suite struct PlaceholderRewriteTests {
    static func rewrite(_ page: [UInt8], _ style: PlaceholderStyle) -> RewriteResult {
        RewriteFixtures.rewriter(RewriteOptions(placeholder: style)).rewriteHTML(page, at: "blog/post.html")
    }

    @Test(arguments: PlaceholderStyle.allCases)
    func theGoldenPageGetsPlaceholdersWhereItHasNoStyle(_ style: PlaceholderStyle) throws {
        let result = Self.rewrite(try HTMLRewriteTests.golden("placeholder.html"), style)
        let expected = try HTMLRewriteTests.expected("placeholder.\(style.rawValue).html", actual: result.bytes)
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(result.findings.map(\.description) == [
            "blog/post.html:4: <img src=\"../img/hero.jpg\">: has a style of its own; left as it is, without its placeholder (remove the style to have dppx write one, or paint the placeholder in your CSS)",
            "blog/post.html:8: <img src=\"../img/other.png\">: img/other.png is in the folder of img/dppx-manifest.json but not in it: build it (dppx build) to give it candidates; left as it is",
        ])
    }

    @Test(arguments: PlaceholderStyle.allCases)
    func aSecondRunChangesNothing(_ style: PlaceholderStyle) throws {
        let once = Self.rewrite(try HTMLRewriteTests.golden("placeholder.html"), style).bytes
        #expect(Self.rewrite(once, style).bytes == once)
    }

    @Test func theStyleIsWhatDppxHtmlWrites() {
        let color = RewriteFixtures.html(#"<img src="img/logo.png">"#, RewriteOptions(placeholder: .color))
        #expect(color.text == #"<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x" style="background-color: #336699">"#)
        let blur = RewriteFixtures.html(#"<img src="img/hero.jpg">"#, RewriteOptions(placeholder: .blur))
        #expect(blur.text == #"<img src="img/hero.jpg" srcset="img/hero.jpg 1x, img/hero@2x.jpg 2x" style="background: url(data:image/webp;base64,UklGRg==) #aabbcc 50% 50% / cover no-repeat">"#)
        #expect(blur.findings.isEmpty)
        #expect(RewriteFixtures.html(#"<img src="img/logo.png">"#).text.contains("style") == false, "only when asked")
    }

    @Test func aStyleDppxWroteFollowsARebuildAndAnotherChoice() {
        let colored = RewriteFixtures.html(#"<img src="img/hero.jpg">"#, RewriteOptions(placeholder: .color)).text
        let blurred = RewriteFixtures.html(colored, RewriteOptions(placeholder: .blur))
        #expect(blurred.text == RewriteFixtures.html(#"<img src="img/hero.jpg">"#, RewriteOptions(placeholder: .blur)).text)
        #expect(blurred.findings.isEmpty)
        let stale = #"<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x" style="background-color: #ffffff">"#
        #expect(RewriteFixtures.html(stale, RewriteOptions(placeholder: .color)).text.hasSuffix(#"style="background-color: #336699">"#))
    }

    @Test func anAuthorsStyleIsNeverRewritten() {
        for style in ["", "color: red", "background-color: #33669", "background-color: #336699; border: 0", "background: url(a.png) #336699 50% 50% / cover no-repeat"] {
            let page = #"<img src="img/logo.png" style="\#(style)">"#
            let result = RewriteFixtures.html(page, RewriteOptions(placeholder: .color))
            #expect(result.text == #"<img src="img/logo.png" style="\#(style)" srcset="img/logo.png 1x, img/logo@2x.png 2x">"#)
            #expect(result.findings.count == 1 && result.findings[0].contains("has a style of its own"), "\(result.findings)")
        }
        #expect(PageRewriter.isPlaceholderStyle("background: url(data:image/webp;base64,UklGRg==) 50% 50% / cover no-repeat"))
        #expect(!PageRewriter.isPlaceholderStyle("background: url(data:image/webp;base64,UklGRg==) red 50% 50% / cover no-repeat"))
    }
}
