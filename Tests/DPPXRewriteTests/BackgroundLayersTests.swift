import DPPXCore
@testable import DPPXRewrite
import Testing

/// A background's layers: only the site's density images become `image-set()`s, every other
/// layer (a gradient overlay, another image, a colour) is written again as it was.
@Suite struct BackgroundLayersTests {
    @Test func layersSplitAtTheirOwnCommasOnly() throws {
        let layers = try #require(BackgroundLayers(#"linear-gradient(rgba(0, 0, 0, .6), rgb(0 0 0 / 20%)), url("a,b.png") center / cover no-repeat, url(c\,d.png), #fff"#))
        #expect(layers.layers.map(\.image) == ["linear-gradient(rgba(0, 0, 0, .6), rgb(0 0 0 / 20%))", #"url("a,b.png")"#, #"url(c\,d.png)"#, nil])
        #expect(layers.layers.map(\.url) == [nil, "a,b.png", "c,d.png", nil])
        #expect(layers.backgroundImage { $0 == 1 ? "image-set(x)" : nil }
            == #"linear-gradient(rgba(0, 0, 0, .6), rgb(0 0 0 / 20%)), image-set(x), url(c\,d.png), none"#)
    }

    @Test func aLayerOfNoneOrOnlyAColourHasNoImage() throws {
        #expect(try #require(BackgroundLayers("none, url(a.png) !important")).layers.map(\.image) == ["none", "url(a.png)"])
        #expect(try #require(BackgroundLayers("/* url(x.png), */ #000 url( 'a.png' ) 0 0 / 10px")).layers.map(\.url) == ["a.png"])
        #expect(try #require(BackgroundLayers("repeating-radial-gradient(circle, red, blue 10%), conic-gradient(red, blue)")).layers.map(\.image)
            == ["repeating-radial-gradient(circle, red, blue 10%)", "conic-gradient(red, blue)"])
    }

    @Test func customPropertiesAreNotGuessed() {
        #expect(BackgroundLayers("var(--overlay), url(a.png)") == nil)
        #expect(BackgroundLayers("url(a.png), env(x)") == nil)
    }

    @Test func anOverlayAboveTheImageIsKept() {
        #expect(RewriteFixtures.css(".h{background: linear-gradient(#0009, #0003), url(img/logo.png) center / cover}", at: "x.css").text
            == #".h{background: linear-gradient(#0009, #0003), url(img/logo.png) center / cover; background-image: linear-gradient(#0009, #0003), image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#)
        #expect(RewriteFixtures.css(".h{background-image: url(img/logo.png), linear-gradient(red, blue);}", at: "x.css").text
            == #".h{background-image: url(img/logo.png), linear-gradient(red, blue); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x), linear-gradient(red, blue);}"#)
    }

    @Test func severalImagesEachGetTheirOwnAndOthersStay() {
        let css = ".h{background: url(img/logo.png) no-repeat, url(other.png), url(img/photo.jpg), #123}"
        let result = RewriteFixtures.css(css, at: "x.css")
        #expect(result.text == #".h{background: url(img/logo.png) no-repeat, url(other.png), url(img/photo.jpg), #123; background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x), url(other.png), url(img/photo.jpg), none}"#)
        #expect(result.findings == ["x.css:1: url(img/photo.jpg) is fluid: its size comes from the page, so no image-set() is added; use dppx css's width media queries for it"])
        #expect(RewriteFixtures.css(result.text, at: "x.css").text == result.text, "a second run changes nothing")
    }

    @Test func aLayeredImageSetFollowsARebuildInPlace() {
        let stale = #".h{background: linear-gradient(#0009, #0003), url(img/logo.png); background-image: linear-gradient(#0009, #0003), image-set(url("img/logo.png") 1x, url("img/logo@3x.png") 3x)}"#
        #expect(RewriteFixtures.css(stale, at: "x.css").text
            == #".h{background: linear-gradient(#0009, #0003), url(img/logo.png); background-image: linear-gradient(#0009, #0003), image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#)
    }

    @Test func aCustomPropertyLayerIsReportedAndLeftAlone() {
        let css = ".h{background: var(--shade), url(img/logo.png)}"
        let result = RewriteFixtures.css(css, at: "x.css")
        #expect(result.text == css)
        #expect(result.findings == ["x.css:1: background uses var(), env() or attr(), which may stand for any number of layers; left as it is"])
    }

    @Test func cssEscapesInURLsAreDecodedForMatching() {
        #expect(RewriteFixtures.css(#".a{background:url(img/l\6F go.png)}"#, at: "x.css").text
            == #".a{background:url(img/l\6F go.png); background-image: image-set(url("img/logo.png") 1x, url("img/logo@2x.png") 2x)}"#)
        #expect(RewriteFixtures.css(#".a{background:url("img/\lo\"go.png")}"#, at: "x.css").text == #".a{background:url("img/\lo\"go.png")}"#)
        #expect(CSSDeclaration.unescaped(Array(#"a\2c b\,c\0 \110000\"#.utf8)) == "a,b,c\u{FFFD}\u{FFFD}")
    }
}
