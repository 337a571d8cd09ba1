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

    @Test("--no-dimensions leaves width and height out of the <img>; --json still has them")
    func noDimensions() throws {
        let markup = try RenderFixtures.markup()
        let html = markup.html([RenderFixtures.withFormats.images[0], RenderFixtures.fluid.images[1]], urls: .relative(""), dimensions: false)
        #expect(!html.contains("width=") && !html.contains("height="), "\(html)")
        #expect(html.contains("srcset=\"hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x\" alt=\"\" loading=\"lazy\""), "\(html)")
        #expect(html.contains("sizes=\"auto, 100vw\" alt=\"\""), "\(html)")
        let json = markup.images([RenderFixtures.basic.images[0]], urls: .relative(""), dimensions: false)
        #expect(json[0].width == 400 && json[0].height == 250 && !json[0].html.contains("width="))
    }

    @Test("srcset densities are the exact ratio where a variant's width over its density is not the CSS width")
    func exactDensities() throws {
        // 301x201 at 2x: a 151x101 box; 1.5x is 227 px wide (1.5033 x 151), 2x the master's 301 (1.9934 x 151).
        let html = try RenderFixtures.markup().html([RenderFixtures.image("odd.jpg", 301, 201)], urls: .relative(""))
        #expect(html.contains("srcset=\"odd.jpg 1x, odd@1.5x.jpg 1.5033x, odd@2x.jpg 1.9934x\" width=\"151\" height=\"101\""), "\(html)")
        // Each descriptor gives the CSS width to 1/200 px.
        for (width, css) in [(226, 151), (301, 151), (1999, 1000), (14_999, 10_000), (3, 2), (7, 3), (100_000, 33_333)] {
            let text = ImageCandidatesProbe.descriptor(width: width, cssWidth: css)
            let density = try #require(Double(text.dropLast()))
            #expect(abs(Double(width) / density - Double(css)) < 0.005, "\(width)/\(css): \(text)")
        }
        #expect(ImageCandidatesProbe.descriptor(width: 400, cssWidth: 200) == "2x", "nominal where it is exact")
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

@Suite("Render: fluid images")
struct RenderFluidTests {
    @Test("fluid markup is the golden one, in HTML and JSON")
    func golden() throws {
        let markup = try RenderFixtures.markup()
        let sizes = MarkupSizes(rules: RenderFixtures.fluidRules)
        RenderFixtures.expectGolden(markup.html(RenderFixtures.fluid.images, urls: .relative(""), sizes: sizes), "fluid.html")
        RenderFixtures.expectGolden(markup.json(RenderFixtures.fluid.images, urls: .relative(""), sizes: sizes), "fluid.json")
    }

    @Test("a fluid <img> lists its widths with w descriptors, its rule's sizes, and the widest file's size for the aspect ratio")
    func card() throws {
        let html = try RenderFixtures.markup().html([RenderFixtures.fluid.images[0]], urls: .relative("img"),
                                                    sizes: MarkupSizes(rules: RenderFixtures.fluidRules))
        #expect(html == """
        <img src="img/cards/a.jpg" srcset="img/cards/a-480w.jpg 480w, img/cards/a-960w.jpg 960w, img/cards/a.jpg 1200w" sizes="(min-width: 768px) 50vw, 100vw" width="1200" height="800" alt="" loading="lazy" decoding="async">

        """)
    }

    @Test("sizes: the rule's, else the command's, else auto with a 100vw fallback; density images get none")
    func sizes() throws {
        let images = RenderFixtures.fluid.images
        let byRule = MarkupSizes(fallback: "50vw", rules: RenderFixtures.fluidRules)
        #expect(byRule.value(for: images[0]) == "(min-width: 768px) 50vw, 100vw")
        #expect(byRule.value(for: images[1]) == "50vw")
        #expect(MarkupSizes().value(for: images[1]) == "auto, 100vw")
        #expect(MarkupSizes().value(for: images[2]) == nil)
        let html = try RenderFixtures.markup().html([images[2]], urls: .relative(""))
        #expect(!html.contains("sizes="))
    }

    @Test("a fluid <picture> has one source per extra format, each with the same widths")
    func picture() throws {
        let html = try RenderFixtures.markup().html([RenderFixtures.fluid.images[1]], urls: .relative(""))
        #expect(html.contains("<source type=\"image/webp\" srcset=\"hero-329w.webp 329w, hero-442w.webp 442w, hero-593w.webp 593w, hero-795w.webp 795w, hero-1067w.webp 1067w, hero-1431w.webp 1431w, hero.webp 1920w\">"))
        #expect(html.contains("sizes=\"auto, 100vw\" width=\"1920\" height=\"1080\""))
    }

    @Test("a sizes value that would break the attribute is refused, naming the setting")
    func badSizes() {
        #expect(MarkupSizes.problem("100vw", spelled: { $0 }) == nil)
        #expect(MarkupSizes.problem("\" onload=\"x", spelled: { "--sizes \($0)" })?.contains("--sizes (min-width") == true)
        #expect(MarkupSizes.problem("  ", spelled: { $0 }) != nil)
    }

    @Test("the fluid stylesheet is the golden one")
    func goldenCSS() throws {
        let css = try RenderFixtures.stylesheet().render(manifest: RenderFixtures.fluid, urls: .relative(""))
        RenderFixtures.expectGolden(css, "fluid.css")
    }

    @Test("a fluid background starts at the narrowest file, then one ascending block per wider file, formats by image-set() with type()")
    func background() throws {
        let css = try RenderFixtures.stylesheet().render(manifest: RenderFixtures.fluid, urls: .relative(""))
        #expect(css.contains("""
        .img-cards-a {
          background-image: url("cards/a-480w.jpg");
        }

        @media (min-width: 481px), (min-width: 321px) and (-webkit-min-device-pixel-ratio: 1.5), (min-width: 321px) and (min-resolution: 1.5dppx)
        """))
        #expect(css.contains("""
          .img-hero { background-image: url("hero-442w.jpg"); background-image: image-set(url("hero-442w.webp") type("image/webp"), url("hero-442w.jpg")); }
        """))
        #expect(!css.contains("background-size: 1920px"), "the page sizes a fluid background")
        let positions = ["hero-442w.jpg", "hero-593w.jpg", "hero-795w.jpg", "hero-1067w.jpg", "hero-1431w.jpg", "hero.jpg"].map { file in
            css.range(of: "url(\"\(file)\")").map { css.distance(from: css.startIndex, to: $0.lowerBound) } ?? -1
        }
        #expect(!positions.contains(-1) && positions == positions.sorted(), "blocks ascend by width")
    }

    /// For every screen, the last matching block names the smallest file at least viewport x DPR wide.
    @Test("the cascade picks the smallest file at least as wide as viewport x DPR", arguments: [
        (375, Density(1)), (375, Density(2)), (375, Density(3)), (600, Density(1)), (768, Density(2)), (1024, Density(1.5)),
        (1366, Density(1)), (1600, Density(1)), (1920, Density(2)), (300, Density(2.625)),
    ])
    func cascade(viewport: Int, density: Density) {
        let widths = [329, 442, 593, 795, 1067, 1431, 1920]
        var chosen = widths[0]
        for step in FluidBackground(widths: widths).steps {
            // A query alternative matches when min-width <= viewport and its density <= the screen's.
            let matches = step.query.components(separatedBy: ", ").contains { alternative in
                let minimum = Int(alternative.split(separator: " ")[1].dropLast(3)) ?? .max
                let needed = alternative.range(of: "min-resolution: ").map { Density(parsing: alternative[$0.upperBound...].prefix { $0 != "d" }) ?? Density(1) }
                    ?? (alternative.contains("ratio") ? Density(parsing: alternative.split(separator: " ").last!.dropLast()) ?? Density(1) : Density(1))
                return minimum <= viewport && needed <= density
            }
            if matches { chosen = step.width }
        }
        let needed = Double(viewport) * density.value
        let expected = widths.first { Double($0) >= needed } ?? widths.last!
        #expect(chosen == expected, "\(viewport) px at \(density)x")
    }
}

/// A variant's `srcset` descriptor, through the markup as pages get it.
enum ImageCandidatesProbe {
    static func descriptor(width: Int, cssWidth: Int) -> String {
        let variant = Manifest.Variant(path: "a@2x.jpg", density: Density(2), format: .jpeg,
                                       size: PixelSize(width: width, height: 10), bytes: 1, hash: "")
        let image = Manifest.Image(source: "a@2x.jpg", path: "a.jpg", sourceHash: "", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: cssWidth, height: 5), densityIndependent: false,
                                   skippedDensities: [], variants: [variant])
        return ImageCandidates(image: image, urls: .relative("")).primary[0].descriptor
    }
}
