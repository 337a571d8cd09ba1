import DPPXCore
import Foundation
import Testing

@Suite("Placeholder")
struct PlaceholderTests {
    /// `width` x `height` RGBA pixels, each from `pixel(x, y)`.
    static func pixels(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) -> [UInt8] {
        var rgba: [UInt8] = []
        for y in 0..<height { for x in 0..<width { rgba += pixel(x, y) } }
        return rgba
    }

    @Test("a flat image's colour is its own")
    func flatColour() {
        #expect(AverageColor.hex(rgba: Self.pixels(8, 5) { _, _ in [0x12, 0x80, 0xfe, 255] }) == "#1280fe")
    }

    @Test("a black and white image averages in linear light, to the grey seen from afar")
    func twoToneColour() {
        let stripes = Self.pixels(10, 10) { x, _ in x % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        // Half the light: sRGB 188, not the 128 of the plain sRGB numbers.
        #expect(AverageColor.hex(rgba: stripes) == "#bcbcbc")
        let redAndBlue = Self.pixels(4, 4) { x, _ in x < 2 ? [255, 0, 0, 255] : [0, 0, 255, 255] }
        #expect(AverageColor.hex(rgba: redAndBlue) == "#bc00bc")
    }

    @Test("transparent pixels do not count; an image with no visible pixel has no colour")
    func transparentColour() {
        // Transparent black around an opaque green square: green, not a darker green.
        let framed = Self.pixels(6, 6) { x, y in (2..<4).contains(x) && (2..<4).contains(y) ? [0, 200, 0, 255] : [0, 0, 0, 0] }
        #expect(AverageColor.hex(rgba: framed) == "#00c800")
        #expect(AverageColor.hex(rgba: Self.pixels(3, 3) { _, _ in [255, 255, 255, 0] }) == nil)
    }

    @Test("a ThumbHash keeps the aspect ratio and decodes to the image's colours where they were")
    func thumbHashRoundTrip() throws {
        let landscape = Self.pixels(100, 50) { x, _ in x < 50 ? [230, 20, 20, 255] : [20, 20, 230, 255] }
        let hash = ThumbHash(width: 100, height: 50, rgba: landscape)
        #expect(!hash.hasAlpha)
        #expect(abs(hash.approximateAspectRatio - 2) < 0.3)
        let preview = hash.rgba()
        #expect(preview.width == 32 && abs(preview.height - 16) <= 2)
        let row = preview.height / 2
        let left = Array(preview.rgba[(row * preview.width + 2) * 4..<(row * preview.width + 2) * 4 + 4])
        let right = Array(preview.rgba[(row * preview.width + preview.width - 3) * 4..<(row * preview.width + preview.width - 3) * 4 + 4])
        #expect(left[0] > 150 && left[2] < 100, "left is red: \(left)")
        #expect(right[2] > 150 && right[0] < 100, "right is blue: \(right)")
        #expect(ThumbHash(base64: hash.base64) == hash)
        #expect(hash.bytes.count < 30)
    }

    @Test("a transparent image's ThumbHash keeps its alpha")
    func thumbHashAlpha() {
        let circle = Self.pixels(40, 40) { x, y in
            (x - 20) * (x - 20) + (y - 20) * (y - 20) < 100 ? [250, 200, 0, 255] : [0, 0, 0, 0]
        }
        let hash = ThumbHash(width: 40, height: 40, rgba: circle)
        #expect(hash.hasAlpha)
        let preview = hash.rgba()
        #expect(preview.width == preview.height)
        let centre = (preview.height / 2 * preview.width + preview.width / 2) * 4
        #expect(preview.rgba[centre + 3] > 200, "the centre is opaque")
        #expect(preview.rgba[3] < 60, "the corner is transparent")
    }

    @Test("bytes that are not a ThumbHash are refused")
    func malformedHash() {
        #expect(ThumbHash(bytes: [1, 2, 3]) == nil)
        #expect(ThumbHash(bytes: [0, 0, 0x80, 0, 0]) == nil, "the alpha flag needs its alpha byte")
        #expect(ThumbHash(base64: "not base64!") == nil)
    }

    @Test("the placeholder style is a colour, or the preview covering the box over that colour")
    func style() {
        let placeholder = ImagePlaceholder(color: "#a1b2c3", thumbHash: "AAAA", preview: "data:image/webp;base64,UklGRg==")
        #expect(PlaceholderStyle.color.declarations(for: placeholder) == "background-color: #a1b2c3")
        #expect(PlaceholderStyle.blur.declarations(for: placeholder)
            == "background: url(data:image/webp;base64,UklGRg==) #a1b2c3 50% 50% / cover no-repeat")
        let animated = ImagePlaceholder(color: "#000000", limitation: "animated")
        #expect(PlaceholderStyle.blur.declarations(for: animated) == "background-color: #000000")
        #expect(PlaceholderStyle.color.declarations(for: .vector) == nil)
        #expect(PlaceholderStyle.blur.declarations(for: nil) == nil)
    }

    @Test("a hand-edited manifest cannot put markup or CSS into the style")
    func styleRefusesOddValues() {
        let odd = ImagePlaceholder(color: "red;}body{", preview: "data:image/webp;base64,AA) ;x:y")
        #expect(PlaceholderStyle.color.declarations(for: odd) == nil)
        #expect(PlaceholderStyle.blur.declarations(for: odd) == nil)
    }

    @Test("the manifest keeps the placeholder, and reads manifests without one")
    func manifestField() throws {
        var image = RenderFixtures.image("hero.jpg", 800, 500)
        image.placeholder = ImagePlaceholder(color: "#102030", thumbHash: "AAAA", preview: "data:image/webp;base64,AA==")
        let decoded = try Manifest.decode(Manifest(images: [image]).encoded())
        #expect(decoded.images[0].placeholder == image.placeholder)
        image.placeholder = nil
        let old = try Manifest.decode(Manifest(images: [image]).encoded())
        #expect(old.images[0].placeholder == nil)
        #expect(!String(decoding: Manifest(images: [image]).encoded(), as: UTF8.self).contains("placeholder"))
    }
}

@Suite("Render: placeholders and preload")
struct RenderPlaceholderTests {
    let sizes = MarkupSizes(rules: RenderFixtures.fluidRules)

    @Test("--placeholder color and blur in the markup are the golden ones")
    func goldenMarkup() throws {
        let markup = try RenderFixtures.markup()
        let images = RenderFixtures.withPlaceholders.images
        RenderFixtures.expectGolden(markup.html(images, urls: .relative(""), sizes: sizes, placeholder: .color), "placeholder-color.html")
        RenderFixtures.expectGolden(markup.html(images, urls: .relative(""), sizes: sizes, placeholder: .blur), "placeholder-blur.html")
        RenderFixtures.expectGolden(markup.json(images, urls: .relative(""), sizes: sizes, placeholder: .blur, preload: "hero.jpg"),
                                    "placeholder-blur.json")
    }

    @Test("--placeholder color and blur in the stylesheet are the golden ones")
    func goldenStylesheet() throws {
        let renderer = try RenderFixtures.stylesheet()
        for style in PlaceholderStyle.allCases {
            let css = try renderer.render(manifest: RenderFixtures.withPlaceholders, urls: .relative(""),
                                          options: StylesheetOptions(placeholder: style))
            RenderFixtures.expectGolden(css, "placeholder-\(style.rawValue).css")
        }
    }

    @Test("without --placeholder nothing changes, placeholders in the manifest or not")
    func unchangedWithout() throws {
        let markup = try RenderFixtures.markup()
        var plain = RenderFixtures.withPlaceholders
        plain.images = plain.images.map { var image = $0; image.placeholder = nil; return image }
        #expect(markup.html(RenderFixtures.withPlaceholders.images, urls: .relative(""), sizes: sizes)
            == markup.html(plain.images, urls: .relative(""), sizes: sizes))
        let renderer = try RenderFixtures.stylesheet()
        #expect(try renderer.render(manifest: RenderFixtures.withPlaceholders, urls: .relative(""))
            == renderer.render(manifest: plain, urls: .relative("")))
    }

    @Test("blur puts the preview beneath every background of the class, so a denser or other-format file keeps it")
    func everyBackgroundKeepsTheLayer() throws {
        let css = try RenderFixtures.stylesheet().render(manifest: RenderFixtures.withPlaceholders, urls: .relative(""),
                                                         options: StylesheetOptions(placeholder: .blur))
        let layer = "url(\(RenderFixtures.placeholder.preview!))"
        let heroLines = css.split(separator: "\n").filter { $0.contains("hero") && $0.contains("background-image") && !$0.contains("329w") }
        #expect(!heroLines.isEmpty)
        for line in heroLines where !line.contains("hero-") {
            #expect(line.contains(", \(layer)"), "\(line)")
        }
    }

    @Test("--preload prints a link that fetches what the <img> picks: the first source's srcset by type, the <img>'s own, an SVG's file")
    func preload() throws {
        let markup = try RenderFixtures.markup()
        let images = RenderFixtures.withPlaceholders.images
        let picture = markup.images(images, urls: .relative(""), sizes: sizes, preload: "hero.jpg")
        let hero = try #require(picture.first { $0.source == "hero.jpg" })
        #expect(hero.preload == #"<link rel="preload" as="image" imagesrcset="hero.avif 1x, hero@1.5x.avif 1.5x, hero@2x.avif 2x" type="image/avif" fetchpriority="high">"#)
        #expect(hero.html.contains(#"fetchpriority="high""#) && !hero.html.contains("lazy"))
        #expect(picture.filter { $0.preload != nil }.count == 1)
        #expect(picture.first { $0.source == "icons/logo@3x.png" }?.html.contains(#"loading="lazy""#) == true)

        let logo = try #require(markup.images(images, urls: .relative(""), preload: "icons/logo@3x.png").first { $0.source == "icons/logo@3x.png" })
        #expect(logo.preload == #"<link rel="preload" as="image" imagesrcset="icons/logo.png 1x, icons/logo@1.5x.png 1.5x, icons/logo@2x.png 2x" fetchpriority="high">"#)
        let svg = try #require(markup.images(images, urls: .relative(""), preload: "vector.svg").first { $0.source == "vector.svg" })
        #expect(svg.preload == #"<link rel="preload" as="image" href="vector.svg" fetchpriority="high">"#)
    }

    @Test("a preloaded fluid image drops sizes=auto (it is not lazy) in both the link and the <img>")
    func preloadFluid() throws {
        let markup = try RenderFixtures.markup()
        let hero = try #require(markup.images(RenderFixtures.fluid.images, urls: .relative(""), preload: "hero.jpg").first { $0.source == "hero.jpg" })
        let link = try #require(hero.preload)
        #expect(link.contains(#"imagesizes="100vw""#))
        #expect(hero.html.contains(#"sizes="100vw""#))
        #expect(link.contains(#"type="image/webp""#))
        #expect(MarkupSizes().eagerValue(for: hero.source == "hero.jpg" ? RenderFixtures.fluid.images.first { $0.source == "hero.jpg" }! : RenderFixtures.fluid.images[0]) == "100vw")
    }
}
