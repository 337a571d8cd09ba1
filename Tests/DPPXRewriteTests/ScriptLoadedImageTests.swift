import DPPXCore
@testable import DPPXRewrite
import Testing

/// Images a lazy-loading script sets (lazysizes, lozad, vanilla-lazyload, WordPress plugins,
/// jQuery Lazy Load) are left as the page wrote them, each reported with the attribute found.
@Suite("Images set by a lazy-loading script")
struct ScriptLoadedImageTests {
    @Test("each usual attribute leaves the image as it is, with a finding naming it; a plain image beside it is rewritten",
          arguments: ScriptLoadedImage.sourceAttributes)
    func leftAsItIs(attribute: String) {
        let page = """
            <img class="lazyload" src="img/hero.jpg" \(attribute)="img/hero.jpg" alt="">
            <img src="img/hero.jpg" alt="">

            """
        let result = RewriteFixtures.html(page)
        #expect(result.text.hasPrefix(#"<img class="lazyload" src="img/hero.jpg" \#(attribute)="img/hero.jpg" alt="">"#), "\(result.text)")
        #expect(result.text.contains(#"<img src="img/hero.jpg" alt="" srcset="#), "the plain image is rewritten: \(result.text)")
        #expect(result.findings.count == 1, "\(result.findings)")
        #expect(result.findings.first?.hasPrefix("index.html:1: <img src=\"img/hero.jpg\">: a lazy-loading script sets its image from \(attribute)") == true,
                "\(result.findings)")
    }

    @Test("a srcset an earlier run wrote on an image that now has data-src is removed")
    func earlierSrcsetRemoved() {
        let plain = RewriteFixtures.html(#"<img src="img/hero.jpg" alt="">"#).text
        #expect(plain.contains("srcset="))
        let lazy = plain.replacingOccurrences(of: "<img ", with: #"<img data-src="img/hero.jpg" "#)
        let result = RewriteFixtures.html(lazy)
        #expect(result.text == #"<img data-src="img/hero.jpg" src="img/hero.jpg" alt="">"#, "\(result.text)")
        #expect(RewriteFixtures.html(result.text).text == result.text, "a second run changes nothing")
    }
}
