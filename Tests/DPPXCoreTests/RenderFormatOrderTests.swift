import DPPXCore
import Testing

@Suite("Render: formats ordered by their bytes")
struct RenderFormatOrderTests {
    /// `hero.jpg` (800x500, 2x) with WebP, AVIF and JPEG XL variants whose recorded sizes are
    /// `bytes[format]` per 1x file (larger densities proportionally), as a build records them.
    static func hero(_ bytes: [ImageFormat: Int]) -> Manifest {
        let plan = ImagePlan(name: MasterName(relativePath: "hero.jpg")!, source: "hero.jpg",
                             masterSize: PixelSize(width: 800, height: 500), hasAlpha: false, animated: false,
                             settings: PlanSettings(densities: [Density(1), Density(2)], defaultSourceDensity: Density(2), sourceDensityGiven: true,
                                                   extraFormats: [.webp, .avif, .jxl]))
        var files: [String: (bytes: Int, hash: String)] = [:]
        for output in plan.outputs {
            files[output.path] = ((bytes[output.format] ?? 1) * output.density.milli / 1000, "h")
        }
        return Manifest(images: [plan.manifestImage(sourceHash: "", files: files)])
    }

    @Test("<picture> lists the JXL source first when it is the smallest, AVIF first when that is")
    func picture() throws {
        let jxlFirst = try RenderFixtures.markup().html(Self.hero([.jpeg: 9000, .webp: 6000, .avif: 5000, .jxl: 4000]).images, urls: .relative(""))
        #expect(jxlFirst == """
        <picture>
          <source type="image/jxl" srcset="hero.jxl 1x, hero@2x.jxl 2x">
          <source type="image/avif" srcset="hero.avif 1x, hero@2x.avif 2x">
          <source type="image/webp" srcset="hero.webp 1x, hero@2x.webp 2x">
          <img src="hero.jpg" srcset="hero.jpg 1x, hero@2x.jpg 2x" width="400" height="250" alt="" loading="lazy" decoding="async">
        </picture>

        """)
        let avifFirst = try RenderFixtures.markup().html(Self.hero([.jpeg: 9000, .webp: 4500, .avif: 2000, .jxl: 7000]).images, urls: .relative(""))
        #expect(avifFirst.contains("""
          <source type="image/avif" srcset="hero.avif 1x, hero@2x.avif 2x">
          <source type="image/webp" srcset="hero.webp 1x, hero@2x.webp 2x">
          <source type="image/jxl" srcset="hero.jxl 1x, hero@2x.jxl 2x">
        """))
    }

    @Test("image-set() lists the formats by their bytes, with type(\"image/jxl\"), the master's format last")
    func imageSet() throws {
        let css = try RenderFixtures.stylesheet().render(manifest: Self.hero([.jpeg: 9000, .webp: 6000, .avif: 5000, .jxl: 4000]),
                                                         urls: .relative(""), options: StylesheetOptions())
        #expect(css.contains("""
        background-image: image-set(url("hero.jxl") type("image/jxl") 1x, url("hero@2x.jxl") type("image/jxl") 2x, \
        url("hero.avif") type("image/avif") 1x, url("hero@2x.avif") type("image/avif") 2x, \
        url("hero.webp") type("image/webp") 1x, url("hero@2x.webp") type("image/webp") 2x, \
        url("hero.jpg") 1x, url("hero@2x.jpg") 2x);
        """), "\(css)")
    }
}
