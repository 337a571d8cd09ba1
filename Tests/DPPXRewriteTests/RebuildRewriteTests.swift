import DPPXCore
@testable import DPPXRewrite
import Testing

/// After a rebuild that removes files (another width ladder, fewer densities, a format
/// dropped), what an earlier run wrote is recognised by its names and descriptors, not by the
/// current manifest, and replaced.
@Suite struct RebuildRewriteTests {
    /// The fixtures' images, the hero rebuilt without AVIF.
    static let withoutAVIF = PageRewriter(images: SiteImages(manifests: [("img", Manifest(images: RewriteFixtures.manifest.images.map { image in
        guard image.source == "hero@2x.jpg" else { return image }
        return RewriteFixtures.image("hero@2x.jpg", PixelSize(width: 800, height: 600), PlanSettings(densities: [Density(1), Density(2)], extraFormats: [.webp]))
    }))]), options: RewriteOptions(picture: true))

    @Test func aSrcsetListingFilesARebuildRemovedIsReplaced() {
        let stale = RewriteFixtures.html(#"<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@1.5x.png 1.5x, img/logo@2x.png 2x">"#)
        #expect(stale.text == #"<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x">"#)
        #expect(stale.findings.isEmpty, "\(stale.findings)")
        let ladder = RewriteFixtures.html(#"<img src="img/photo.jpg" srcset="img/photo-373w.jpg 373w, img/photo-496w.jpg 496w, img/photo.jpg 778w" sizes="50vw">"#)
        #expect(ladder.text == #"<img src="img/photo.jpg" srcset="img/photo-322w.jpg 322w, img/photo-432w.jpg 432w, img/photo-580w.jpg 580w, img/photo.jpg 778w" sizes="50vw">"#)
    }

    @Test func aSrcsetNamedOtherwiseIsTheAuthors() {
        for srcset in ["img/logo-small.png 1x, img/logo.png 2x", "img/logo.png 1x, img/other@2x.png 2x", "img/logo.png, img/logo@2x.png 2x",
                       "img/logo.png 1x, img/logo@2x.png 2h", "img/logo.png 1x, ../logo@2x.png 2x", "img/logo.png 1x, img/logo@2x.txt 2x"] {
            let page = #"<img src="img/logo.png" srcset="\#(srcset)">"#
            let result = RewriteFixtures.html(page)
            #expect(result.text == page)
            #expect(result.findings.count == 1 && result.findings[0].contains("has a srcset of its own"), "\(srcset): \(result.findings)")
        }
    }

    @Test func aSourceOfAFormatTheRebuildDroppedIsRemoved() {
        let before = RewriteFixtures.html(#"<img src="img/hero.jpg">"#, RewriteOptions(picture: true)).text
        #expect(before.contains(#"<source type="image/avif""#))
        let after = String(decoding: Self.withoutAVIF.rewriteHTML(Array(before.utf8), at: "index.html").bytes, as: UTF8.self)
        #expect(after == #"<picture><source type="image/webp" srcset="img/hero.webp 1x, img/hero@2x.webp 2x"><img src="img/hero.jpg" srcset="img/hero.jpg 1x, img/hero@2x.jpg 2x"></picture>"#)
        #expect(Self.withoutAVIF.rewriteHTML(Array(after.utf8), at: "index.html").bytes == Array(after.utf8), "a second run changes nothing")
        // Back with AVIF: it comes first again, as the smallest.
        #expect(RewriteFixtures.html(after, RewriteOptions(picture: true)).text == before)
    }

    @Test func aStaleImageSetIsUpdatedInPlaceNeverFollowedByANewOne() {
        let stale = #".a{background:url(img/logo.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@1.5x.png") 1.5x, url("img/logo@3x.png") 3x)}"#
        #expect(RewriteFixtures.css(stale, at: "x.css").text
            == #".a{background:url(img/logo.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#)
        let attribute = #"<p style="background:url(img/logo.png); background-image: image-set(url('img/logo.png') 1x, url('img/logo@3x.png') 3x)">"#
        #expect(RewriteFixtures.html(attribute).text
            == #"<p style="background:url(img/logo.png); background-image: image-set(url('img/logo.png') 1x, url('img/logo@2x.png') 2x)">"#)
    }

    @Test func anImageSetIsRemovedWhenItsImageHasOneFileLeft() {
        let single = PageRewriter(images: SiteImages(manifests: [("img", Manifest(images: [
            RewriteFixtures.image("logo@2x.png", PixelSize(width: 240, height: 80), PlanSettings(densities: [Density(2)])),
        ]))]))
        let css = #".a{background:url(img/logo.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#
        #expect(String(decoding: single.rewriteCSS(Array(css.utf8), at: "x.css").bytes, as: UTF8.self) == ".a{background:url(img/logo.png);}")
    }

    @Test func anImageWithOneFileOrNotBuiltIsNamed() {
        let single = PageRewriter(images: SiteImages(manifests: [("img", Manifest(images: [
            RewriteFixtures.image("tiny@1x.png", PixelSize(width: 40, height: 40), PlanSettings(densities: [Density(1)])),
        ]))]))
        let page = #"<img src="img/tiny.png"><img src="img/new.jpg"><img src="elsewhere/a.jpg"><img src="https://example.com/img/b.jpg">"#
        let result = single.rewriteHTML(Array(page.utf8), at: "index.html")
        #expect(String(decoding: result.bytes, as: UTF8.self) == page)
        #expect(result.findings.map(\.description) == [
            "index.html:1: <img src=\"img/tiny.png\">: img/tiny.png has one file only (1x): nothing for a srcset to choose from; build it at more densities or widths, or from a larger master",
            "index.html:1: <img src=\"img/new.jpg\">: img/new.jpg is in the folder of img/dppx-manifest.json but not in it: build it (dppx build) to give it candidates; left as it is",
        ])
        // A srcset an earlier run wrote, when the image had more files, goes: a srcset of one
        // file chooses nothing, and its other candidates are no longer built.
        let earlier = single.rewriteHTML(Array(#"<img src="img/tiny.png" srcset="img/tiny.png 1x, img/tiny@2x.png 2x" alt="">"#.utf8), at: "index.html")
        #expect(String(decoding: earlier.bytes, as: UTF8.self) == #"<img src="img/tiny.png" alt="">"#)
        // A srcset of the page's own is its own.
        let own = single.rewriteHTML(Array(#"<img src="img/tiny.png" srcset="other.png 2x">"#.utf8), at: "index.html")
        #expect(String(decoding: own.bytes, as: UTF8.self) == #"<img src="img/tiny.png" srcset="other.png 2x">"#)
    }
}
