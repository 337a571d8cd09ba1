import DPPXCore
import Foundation
import Testing

@Suite("Render: HTML markup")
struct RenderMarkupTests {
    @Test("the default markup is the golden one")
    func golden() throws {
        let markup = try RenderFixtures.markup()
        RenderFixtures.expectGolden(markup.html(RenderFixtures.basic.images, urls: .relative("")), "basic.html")
        RenderFixtures.expectGolden(markup.html(RenderFixtures.withFormats.images, urls: .relative("")), "formats.html")
    }

    @Test("--json prints the same data, golden")
    func goldenJSON() throws {
        let markup = try RenderFixtures.markup()
        RenderFixtures.expectGolden(markup.json(RenderFixtures.withFormats.images, urls: .relative("")), "formats.json")
    }

    @Test("an <img> has src, srcset, the CSS size, empty alt, lazy loading and async decoding")
    func img() throws {
        let html = try RenderFixtures.markup().html([RenderFixtures.basic.images[0]], urls: .relative(""))
        #expect(html == """
        <img src="hero.jpg" srcset="hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x" width="400" height="250" alt="" loading="lazy" decoding="async">

        """)
    }

    @Test("with extra formats, a <picture> lists AVIF then WebP sources before the <img>")
    func picture() throws {
        let html = try RenderFixtures.markup().html([RenderFixtures.withFormats.images[0]], urls: .relative("img"))
        #expect(html == """
        <picture>
          <source type="image/avif" srcset="img/hero.avif 1x, img/hero@1.5x.avif 1.5x, img/hero@2x.avif 2x">
          <source type="image/webp" srcset="img/hero.webp 1x, img/hero@1.5x.webp 1.5x, img/hero@2x.webp 2x">
          <img src="img/hero.jpg" srcset="img/hero.jpg 1x, img/hero@1.5x.jpg 1.5x, img/hero@2x.jpg 2x" width="400" height="250" alt="" loading="lazy" decoding="async">
        </picture>

        """)
    }

    @Test("an SVG gets a plain <img> without srcset")
    func svg() throws {
        let html = try RenderFixtures.markup().html([RenderFixtures.basic.images[2]], urls: .relative(""))
        #expect(html == "<img src=\"vector.svg\" width=\"24\" height=\"24\" alt=\"\" loading=\"lazy\" decoding=\"async\">\n")
    }

    @Test("attribute values are escaped: & and quotes in a base URL cannot end the attribute")
    func attributeEscaping() throws {
        let html = try RenderFixtures.markup().html([RenderFixtures.basic.images[0]], urls: .absolute("https://x.test/i?a=1&b=\"2\"/"))
        #expect(html.contains("src=\"https://x.test/i?a=1&amp;b=%222%22/hero.jpg\""))
        #expect(!html.contains("&b="))
    }

    @Test("JSON decodes to the markup's data")
    func json() throws {
        let text = try RenderFixtures.markup().json(RenderFixtures.withFormats.images, urls: .relative(""))
        let document = try JSONDecoder().decode(MarkupDocument.self, from: Data(text.utf8))
        #expect(document.images.map(\.source) == ["hero.jpg", "icons/logo@3x.png", "vector.svg"])
        #expect(document.images[0].sources.map(\.type) == ["image/avif", "image/webp"])
        #expect(document.images[0].html.hasPrefix("<picture>"))
        #expect(document.images[2].srcset == nil)
        #expect(document.images[1].width == 32)
    }
}
