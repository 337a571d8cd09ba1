import DPPXCore
import Foundation
@testable import DPPXRewrite
import Testing

/// Pages get `srcset` (and `sizes` where the layout is known) and nothing else: the golden page
/// holds every way an `<img>` can be written and placed.
@Suite struct HTMLRewriteTests {
    static let options = RewriteOptions(baseURL: "https://cdn.example.com/")

    static func golden(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: goldenURL(name)))
    }

    static func goldenURL(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden/\(name)")
    }

    /// The golden file `name`; with DPPX_RECORD_GOLDEN=1 in the environment, `actual` is
    /// written as it first (review the diff before committing).
    static func expected(_ name: String, actual: [UInt8]) throws -> [UInt8] {
        if ProcessInfo.processInfo.environment["DPPX_RECORD_GOLDEN"] == "1" {
            try Data(actual).write(to: goldenURL(name))
        }
        return try golden(name)
    }

    @Test func theGoldenPageGetsSrcsetWhereTheLayoutCannotChange() throws {
        let page = try Self.golden("page.html")
        let result = RewriteFixtures.rewriter(Self.options).rewriteHTML(page, at: "blog/post.html")
        let expected = try Self.expected("page.rewritten.html", actual: result.bytes)
        #expect(String(decoding: result.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        #expect(result.findings.map(\.description) == [
            "blog/post.html:23: <img src=\"../img/photo.jpg\">: img/photo.jpg is fluid (files 322w, 432w, 580w, 778w) and the page does not say how wide it is shown: add sizes=\"...\" (e.g. sizes=\"(min-width: 800px) 600px, 100vw\") or a width attribute, give its [[rule]] a sizes, or pass --sizes; left without srcset",
            "blog/post.html:28: <img src=\"../img/missing.png\">: img/missing.png is in the folder of img/dppx-manifest.json but not in it: build it (dppx build) to give it candidates; left as it is",
            "blog/post.html:29: <img src=\"../img/logo.png\">: has a srcset of its own; left as it is (remove it to have dppx write one)",
        ])
    }

    @Test func everyOtherByteStaysAsItWas() throws {
        let page = try Self.golden("page.html")
        let rewritten = RewriteFixtures.rewriter(Self.options).rewriteHTML(page, at: "blog/post.html").bytes
        #expect(Self.withoutAdded(rewritten, comparedTo: page) == page)
    }

    @Test func aSecondRunChangesNothing() throws {
        let rewriter = RewriteFixtures.rewriter(Self.options)
        let once = rewriter.rewriteHTML(try Self.golden("page.html"), at: "blog/post.html").bytes
        #expect(rewriter.rewriteHTML(once, at: "blog/post.html").bytes == once)
        let css = rewriter.rewriteCSS(try Self.golden("site.css"), at: "css/site.css").bytes
        #expect(rewriter.rewriteCSS(css, at: "css/site.css").bytes == css)
    }

    @Test func rebuiltImagesGetTheirCandidatesUpdated() throws {
        // The logo is rebuilt with a 1.5x: the srcset an earlier run wrote follows.
        let wider = Manifest(images: RewriteFixtures.manifest.images.map { image in
            guard image.source == "logo@2x.png" else { return image }
            return RewriteFixtures.image("logo@2x.png", PixelSize(width: 240, height: 80), PlanSettings())
        })
        let before = RewriteFixtures.rewriter(Self.options).rewriteHTML(try Self.golden("page.html"), at: "blog/post.html").bytes
        let rebuilt = PageRewriter(images: SiteImages(manifests: [("img", wider)]), options: Self.options)
        let updated = rebuilt.rewriteHTML(before, at: "blog/post.html").bytes
        #expect(updated == rebuilt.rewriteHTML(try Self.golden("page.html"), at: "blog/post.html").bytes)
        #expect(String(decoding: updated, as: UTF8.self).contains(#"srcset="../img/logo.png 1x, ../img/logo@1.5x.png 1.5x, ../img/logo@2x.png 2x""#))
    }

    @Test func crlfPagesKeepTheirLineBreaks() throws {
        let page = Array(String(decoding: try Self.golden("page.html"), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let expected = String(decoding: try Self.golden("page.rewritten.html"), as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n")
        let result = RewriteFixtures.rewriter(Self.options).rewriteHTML(page, at: "blog/post.html")
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
    }

    @Test func aDensityImageGetsXDescriptorsAndNothingElse() {
        let rewritten = RewriteFixtures.html(#"<p>Hi</p><img src="img/logo.png" alt="Logo">"#)
        #expect(rewritten.text == #"<p>Hi</p><img src="img/logo.png" alt="Logo" srcset="img/logo.png 1x, img/logo@2x.png 2x">"#)
        #expect(rewritten.findings.isEmpty)
    }

    @Test func sizesComeFromTheRuleThenTheWidthThenTheFlag() {
        let page = #"<img src="/img/photo.jpg">"#
        let rule = RewriteOptions(sizes: "100vw", rules: [ImageRule(match: [PathGlob("photo.jpg")], sizes: "50vw")])
        #expect(RewriteFixtures.html(page, rule).text == #"<img src="/img/photo.jpg" srcset="/img/photo-322w.jpg 322w, /img/photo-432w.jpg 432w, /img/photo-580w.jpg 580w, /img/photo.jpg 778w" sizes="50vw">"#)
        #expect(RewriteFixtures.html(page, RewriteOptions(sizes: "100vw")).text.hasSuffix(#" sizes="100vw">"#))
        #expect(RewriteFixtures.html(#"<img src="/img/photo.jpg" width=300>"#, RewriteOptions(sizes: "100vw")).text.hasSuffix(#" sizes="300px">"#))
    }

    @Test func dimensionsAreAddedOnlyWhenAskedAndMissing() {
        let options = RewriteOptions(dimensions: true)
        #expect(RewriteFixtures.html(#"<img src="img/logo.png">"#, options).text
            == #"<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x" width="120" height="40">"#)
        #expect(RewriteFixtures.html(#"<img src="img/logo.png" width="60">"#, options).text
            == #"<img src="img/logo.png" width="60" srcset="img/logo.png 1x, img/logo@2x.png 2x">"#)
    }

    @Test func pictureWrapsImagesWithExtraFormatsOnceAndKeepsItsSourcesUpToDate() {
        let options = RewriteOptions(picture: true)
        let page = #"<a href="/"><img src="img/hero.jpg" alt="Hero"></a><img src="img/logo.png">"#
        let once = RewriteFixtures.html(page, options)
        #expect(once.text == #"<a href="/"><picture><source type="image/avif" srcset="img/hero.avif 1x, img/hero@2x.avif 2x"><source type="image/webp" srcset="img/hero.webp 1x, img/hero@2x.webp 2x"><img src="img/hero.jpg" alt="Hero" srcset="img/hero.jpg 1x, img/hero@2x.jpg 2x"></picture></a><img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x">"#,
                "only images with extra formats get a picture")
        #expect(RewriteFixtures.html(once.text, options).text == once.text, "a second run changes nothing")
        let stale = once.text.replacingOccurrences(of: #"srcset="img/hero.webp 1x, img/hero@2x.webp 2x""#, with: #"srcset="img/hero.webp 1x""#)
        #expect(RewriteFixtures.html(stale, options).text == once.text, "a source dppx wrote is brought up to date")
        let adjacent = RewriteFixtures.html(#"<img src="img/hero.jpg"><img src="img/hero.jpg">"#, options).text
        #expect(adjacent.components(separatedBy: "</picture><picture>").count == 2, "\(adjacent)")
        let foreign = #"<picture><source type="image/webp" srcset="img/other.webp"><img src="img/hero.jpg"></picture>"#
        let kept = RewriteFixtures.html(foreign, options)
        #expect(kept.text == #"<picture><source type="image/webp" srcset="img/other.webp"><img src="img/hero.jpg" srcset="img/hero.jpg 1x, img/hero@2x.jpg 2x"></picture>"#)
        #expect(kept.findings.count == 1 && kept.findings[0].contains("is not dppx's"))
    }

    @Test func urlsResolveAgainstThePageAndTheRoot() {
        #expect(RewriteFixtures.html(#"<img src="../../img/logo.png">"#, at: "a/b/page.html").text.contains("srcset=\"../../img/logo.png 1x, ../../img/logo@2x.png 2x\""))
        #expect(RewriteFixtures.html(#"<img src="../img/logo.png">"#, at: "page.html").findings.isEmpty, "above the root: not a file of the site")
        #expect(RewriteFixtures.html(#"<img src="../img/logo.png">"#, at: "page.html").text == #"<img src="../img/logo.png">"#)
        #expect(RewriteFixtures.html(#"<img src="img/log%6F.png">"#).text.contains(#"srcset="img/log%6F.png 1x, img/logo@2x.png 2x""#))
        #expect(RewriteFixtures.html(#"<img src="//cdn.example.com/img/logo.png">"#).text == #"<img src="//cdn.example.com/img/logo.png">"#)
    }

    @Test func emptyAndNonHTMLInputIsLeftAlone() {
        for text in ["", "<", "<img", "<img src>", "\u{FEFF}", "<img src=\"img/logo.png\"", String(repeating: "<div>", count: 2000)] {
            #expect(RewriteFixtures.html(text).text.count >= text.count)
        }
        let invalid: [UInt8] = [0x3C, 0x70, 0x3E, 0xFF, 0xFE, 0x3C, 0x69, 0x6D, 0x67, 0x20, 0x73, 0x72, 0x63, 0x3D, 0x22, 0x69, 0x6D, 0x67, 0x2F, 0x6C, 0x6F, 0x67, 0x6F, 0x2E, 0x70, 0x6E, 0x67, 0x22, 0x3E]
        let result = RewriteFixtures.rewriter().rewriteHTML(invalid, at: "index.html").bytes
        #expect(Array(result.prefix(invalid.count - 1)) == Array(invalid.dropLast()), "invalid UTF-8 is kept byte for byte")
    }

    /// `rewritten` without the ` srcset="..."` and ` sizes="..."` attributes `original` lacks.
    static func withoutAdded(_ rewritten: [UInt8], comparedTo original: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var index = 0
        var originalIndex = 0
        while index < rewritten.count {
            if originalIndex < original.count, rewritten[index] == original[originalIndex] {
                result.append(rewritten[index]); index += 1; originalIndex += 1; continue
            }
            // An added attribute: ` name="value"` with name srcset or sizes.
            let rest = String(decoding: rewritten[index...].prefix(9), as: UTF8.self)
            guard rest.hasPrefix(" srcset=\"") || rest.hasPrefix(" sizes=\"") else { return rewritten }
            var end = index + (rest.hasPrefix(" srcset") ? 9 : 8)
            while end < rewritten.count, rewritten[end] != UInt8(ascii: "\"") { end += 1 }
            index = end + 1
        }
        return result
    }
}
