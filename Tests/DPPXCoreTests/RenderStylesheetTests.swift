import DPPXCore
import Testing

@Suite("Render: stylesheet")
struct RenderStylesheetTests {
    func css(_ manifest: Manifest, urls: URLBase = .relative(""), options: StylesheetOptions = StylesheetOptions()) throws -> String {
        try RenderFixtures.stylesheet().render(manifest: manifest, urls: urls, options: options)
    }

    @Test("the default stylesheet is the golden one")
    func golden() throws {
        RenderFixtures.expectGolden(try css(RenderFixtures.basic), "basic.css")
    }

    @Test("with extra formats, the default stylesheet is the golden one")
    func goldenFormats() throws {
        RenderFixtures.expectGolden(try css(RenderFixtures.withFormats), "formats.css")
    }

    @Test("each image's rule has its 1x background, background-size and box of the CSS size")
    func baseRule() throws {
        let text = try css(RenderFixtures.basic)
        #expect(text.contains("""
        .img-hero {
          background-image: url("hero.jpg");
          background-size: 400px 250px;
          width: 400px;
          height: 250px;
        }
        """))
        #expect(text.contains(".img-icons-logo {\n  background-image: url(\"icons/logo.png\");\n  background-size: 32px 32px;"))
    }

    @Test("--no-box leaves width and height out but keeps background-size")
    func noBox() throws {
        let text = try css(RenderFixtures.basic, options: StylesheetOptions(box: false))
        #expect(!text.contains("width:"))
        #expect(!text.contains("height:"))
        #expect(text.contains("background-size: 400px 250px;"))
    }

    @Test("one @media block per density, ascending, holding every image that has it")
    func mediaBlocks() throws {
        let text = try css(RenderFixtures.basic)
        let blocks = text.components(separatedBy: "@media ").dropFirst()
        #expect(blocks.count == 2)
        let first = try #require(blocks.first), second = try #require(blocks.last)
        #expect(first.hasPrefix("(-webkit-min-device-pixel-ratio: 1.5), (min-resolution: 1.5dppx) {\n"))
        #expect(first.contains("  .img-hero { background-image: url(\"hero@1.5x.jpg\"); }\n"))
        #expect(first.contains("  .img-icons-logo { background-image: url(\"icons/logo@1.5x.png\"); }\n"))
        #expect(second.hasPrefix("(-webkit-min-device-pixel-ratio: 2), (min-resolution: 2dppx) {\n"))
        #expect(second.contains(".img-hero { background-image: url(\"hero@2x.jpg\"); }"))
        // The base rules come before every media block, so the media blocks override them.
        #expect(try #require(text.range(of: ".img-hero {\n")).lowerBound < (try #require(text.range(of: "@media"))).lowerBound)
    }

    @Test("an SVG gets one rule and no media query or image-set")
    func svg() throws {
        let text = try css(RenderFixtures.withFormats)
        #expect(text.contains(".img-vector {\n  background-image: url(\"vector.svg\");\n  background-size: 24px 24px;"))
        #expect(text.components(separatedBy: ".img-vector").count == 2)
    }

    @Test("--legacy adds the old spellings of each density")
    func legacy() throws {
        let text = try css(RenderFixtures.basic, options: StylesheetOptions(legacy: true))
        #expect(text.contains("@media (-webkit-min-device-pixel-ratio: 1.5), (min--moz-device-pixel-ratio: 1.5), (-o-min-device-pixel-ratio: 3/2), (min-resolution: 144dpi), (min-resolution: 1.5dppx) {"))
        #expect(text.contains("(-o-min-device-pixel-ratio: 2/1), (min-resolution: 192dpi), (min-resolution: 2dppx)"))
        #expect(DensityMediaQuery(density: Density(2.625), legacy: true).text.contains("(-o-min-device-pixel-ratio: 21/8), (min-resolution: 252dpi)"))
        #expect(DensityMediaQuery(density: Density(1.1), legacy: true).text.contains("(min-resolution: 105.6dpi)"))
    }

    @Test("image-set() rules come after the media blocks, with type() after the -webkit- fallback, preferred formats first")
    func imageSetCascade() throws {
        let text = try css(RenderFixtures.withFormats)
        let lastMedia = try #require(text.range(of: "@media", options: .backwards))
        let webkit = try #require(text.range(of: "background-image: -webkit-image-set("))
        let typed = try #require(text.range(of: "background-image: image-set("))
        #expect(lastMedia.lowerBound < webkit.lowerBound)
        #expect(webkit.lowerBound < typed.lowerBound)
        #expect(text.contains("""
        background-image: -webkit-image-set(url("hero.jpg") 1x, url("hero@1.5x.jpg") 1.5x, url("hero@2x.jpg") 2x);
        """))
        #expect(text.contains("""
        background-image: image-set(url("hero.avif") type("image/avif") 1x, url("hero@1.5x.avif") type("image/avif") 1.5x, \
        url("hero@2x.avif") type("image/avif") 2x, url("hero.webp") type("image/webp") 1x, \
        url("hero@1.5x.webp") type("image/webp") 1.5x, url("hero@2x.webp") type("image/webp") 2x, \
        url("hero.jpg") 1x, url("hero@1.5x.jpg") 1.5x, url("hero@2x.jpg") 2x);
        """))
        // Only images with extra formats get one.
        #expect(!text.contains(".img-icons-logo {\n  background-image: -webkit-image-set"))
        // Without extra formats there is none at all.
        #expect(!(try css(RenderFixtures.basic)).contains("image-set"))
    }

    @Test("an image whose densities skip 1x falls back to its lowest density")
    func no1x() throws {
        let image = RenderFixtures.image("hero.jpg", 800, 500, densities: [Density(2), Density(3)], sourceDensity: Density(4))
        let text = try css(Manifest(images: [image]))
        #expect(text.contains("background-image: url(\"hero@2x.jpg\");\n  background-size: 200px 125px;"))
        #expect(text.contains("@media (-webkit-min-device-pixel-ratio: 3), (min-resolution: 3dppx) {\n  .img-hero { background-image: url(\"hero@3x.jpg\"); }"))
        #expect(!text.contains("2dppx"))
    }

    @Test("a master below some densities is left out of their blocks; the lower block still covers those screens")
    func skippedDensities() throws {
        let oneX = RenderFixtures.image("small.png", 100, 80, sourceDensity: Density(1))
        let text = try css(Manifest(images: [RenderFixtures.image("hero.jpg", 800, 500), oneX]))
        #expect(text.contains(".img-small {\n  background-image: url(\"small.png\");"))
        #expect(!text.contains(".img-small { background-image"))
    }

    @Test("the same manifest always renders the same bytes")
    func deterministic() throws {
        let images = RenderFixtures.withFormats.images
        let forward = try css(Manifest(images: images))
        let backward = try css(Manifest(images: images.reversed()))
        #expect(forward == backward)
        #expect(forward == (try css(Manifest(images: images))))
    }

    @Test("URLs follow the URL base: relative from a subfolder, or under --base-url")
    func urlBases() throws {
        let up = try css(RenderFixtures.basic, urls: .relative("../img"))
        #expect(up.contains("url(\"../img/hero.jpg\")"))
        #expect(up.contains("url(\"../img/icons/logo@2x.png\")"))
        let cdn = try css(RenderFixtures.basic, urls: .absolute("https://cdn.example.com/a b/"))
        #expect(cdn.contains("url(\"https://cdn.example.com/a%20b/hero@1.5x.jpg\")"))
    }

    @Test("a file name with quotes, spaces and parentheses cannot break out of url()")
    func escapedFileNames() throws {
        let text = try css(Manifest(images: [RenderFixtures.image("my \"best\" (1)'s.jpg", 200, 100)]))
        #expect(text.contains("url(\"my%20%22best%22%20%281%29%27s.jpg\")"))
        #expect(text.contains("url(\"my%20%22best%22%20%281%29%27s@2x.jpg\")"))
    }

    @Test("--prefix goes before every class name; img- by default, so a page's own .logo is never restyled; an empty one gives bare names")
    func prefix() throws {
        let text = try css(RenderFixtures.basic, options: StylesheetOptions(classPrefix: "pic-"))
        #expect(text.contains(".pic-hero {"))
        #expect(text.contains("  .pic-icons-logo { background-image"))
        #expect(!text.contains("\n.hero"))
        let logo = try css(Manifest(images: [RenderFixtures.image("logo.png", 108, 142), RenderFixtures.image("favicon.png", 64, 64)]))
        #expect(logo.contains("\n.img-logo {") && logo.contains("\n.img-favicon {"))
        #expect(!logo.contains("\n.logo") && !logo.contains(" .logo") && !logo.contains(".favicon"), "\(logo)")
        let bare = try css(RenderFixtures.basic, options: StylesheetOptions(classPrefix: ""))
        #expect(bare.contains("\n.hero {") && bare.contains("  .icons-logo { background-image"))
        #expect(ProjectSettings().stylesheetOptions.classPrefix == "img-")
    }

    @Test("only the images the project selects get rules: [css] match, a rule's css = false (and css = true back in)")
    func selection() throws {
        var noLogos = ImageRule(match: [PathGlob("icons/**")])
        noLogos.css = false
        let ruled = try css(RenderFixtures.withFormats, options: StylesheetOptions(rules: [noLogos]))
        #expect(ruled.contains(".img-hero {") && ruled.contains(".img-vector {"))
        #expect(!ruled.contains("icons"), "no rule, override or image-set for a css = false image: \(ruled)")
        let matched = try css(RenderFixtures.basic, options: StylesheetOptions(match: [PathGlob("hero.jpg")]))
        #expect(matched.contains(".img-hero {") && !matched.contains("logo") && !matched.contains("vector"), "\(matched)")
        var backIn = ImageRule(match: [PathGlob("*.svg")])
        backIn.css = true
        let both = StylesheetOptions(match: [PathGlob("hero.jpg")], rules: [noLogos, backIn])
        #expect(both.includes("hero.jpg") && both.includes("vector.svg") && !both.includes("icons/logo@3x.png"))
        #expect(both.includingEveryImage.includes("icons/logo@3x.png"), "images named one by one get their rules")
        // Left-out images cannot clash with the ones kept.
        var noPNG = ImageRule(match: [PathGlob("*.png")])
        noPNG.css = false
        let clash = Manifest(images: [RenderFixtures.image("hero.jpg", 80, 50), RenderFixtures.image("hero.png", 80, 50)])
        #expect(try css(clash, options: StylesheetOptions(rules: [noPNG])).contains(".img-hero {"))
    }

    @Test("image-set() densities are exact where a variant's width over its density is not the CSS width")
    func exactImageSet() throws {
        // 301x201 at 2x: a 151x101 box; its 1.5x is 227x152, which is 1.5033 x 151.
        let text = try css(Manifest(images: [RenderFixtures.image("odd.jpg", 301, 201, formats: [.webp])]))
        #expect(text.contains("url(\"odd@1.5x.jpg\") 1.5033x"), "\(text)")
        #expect(text.contains("url(\"odd@2x.webp\") type(\"image/webp\") 1.9934x"), "\(text)")
        #expect(text.contains("url(\"odd.jpg\") 1x"))
        #expect(text.contains("@media (-webkit-min-device-pixel-ratio: 1.5), (min-resolution: 1.5dppx)"), "queries stay on the screens' densities")
    }

    @Test("two images that would share a selector are an error naming both")
    func collision() throws {
        let manifest = Manifest(images: [RenderFixtures.image("hero.jpg", 80, 50), RenderFixtures.image("hero.png", 80, 50)])
        #expect(throws: RenderError.selectorCollision(selector: ".img-hero", first: "hero.jpg", second: "hero.png")) {
            try css(manifest)
        }
        let error = RenderError.selectorCollision(selector: ".img-hero", first: "hero.jpg", second: "hero.png")
        #expect(error.description == "hero.jpg and hero.png would both get the selector .img-hero; rename one of them")
    }
}
