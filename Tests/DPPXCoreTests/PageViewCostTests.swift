@testable import DPPXCore
import Testing

/// What a page view costs: the file each profile's browser fetches for every measured image,
/// before (the plain file) and after (its pick among the rewrite's candidates).
@Suite struct PageViewCostTests {
    /// A fluid photo 1600 px wide: JPEG at 400, 800, 1200 and its own 1600 px (the plain file,
    /// 1600 bytes a JPEG pixel column), AVIF a quarter of that, WebP a half.
    static let photo: Manifest.Image = {
        var variants: [Manifest.Variant] = []
        for width in [400, 800, 1200, 1600] {
            let stem = width == 1600 ? "img/photo" : "img/photo-\(width)w"
            for (format, share) in [(ImageFormat.jpeg, 4), (.avif, 1), (.webp, 2)] {
                variants.append(Manifest.Variant(path: "\(stem).\(format.fileExtension)", density: Density(milli: width * 1000 / 1600),
                                                 format: format, size: PixelSize(width: width, height: width / 2),
                                                 bytes: width * share, hash: "\(width)\(format)"))
            }
        }
        return Manifest.Image(source: "photo.jpg", path: "img/photo.jpg", sourceHash: "p", sourceDensity: Density(1),
                              cssSize: PixelSize(width: 1600, height: 800), densityIndependent: false, fluid: true,
                              intent: .default, skippedDensities: [], variants: variants)
    }()

    /// A 2x logo built in place: its plain file is the master (not a variant), 1x and 2x in PNG,
    /// a WebP at 1x only (the 2x WebP was not smaller).
    static let logo = Manifest.Image(
        source: "logo.png", path: "img/logo.png", sourceHash: "l", sourceDensity: Density(2),
        cssSize: PixelSize(width: 100, height: 50), densityIndependent: false, intent: .rule, skippedDensities: [],
        variants: [
            Manifest.Variant(path: "img/logo@1x.png", density: Density(1), format: .png, size: PixelSize(width: 100, height: 50), bytes: 300, hash: "a"),
            Manifest.Variant(path: "img/logo@2x.png", density: Density(2), format: .png, size: PixelSize(width: 200, height: 100), bytes: 900, hash: "b"),
            Manifest.Variant(path: "img/logo@1x.webp", density: Density(1), format: .webp, size: PixelSize(width: 100, height: 50), bytes: 100, hash: "c"),
        ])

    static let images = ["img/photo.jpg": photo, "img/logo.png": logo]

    /// index.html: the photo in a box of half the viewport (measured every 40 px from 320), the
    /// logo in its 100 px box, and the photo again as a 300 px wide background.
    static func layout(restored: String? = nil, unsized: String? = nil, unwrapped: String? = nil) -> LayoutFile {
        let viewports = stride(from: 320.0, through: 2560, by: 40)
        let page = LayoutFile.Page(
            hash: "h", dependencies: [], viewportHeight: 800, scrollbars: "hidden",
            images: [
                LayoutFile.Image(offset: 10, src: "img/photo.jpg", samples: viewports.map { LayoutFile.Sample(viewport: $0, width: $0 / 2, height: $0 / 4) },
                                 unsized: unsized, unwrapped: unwrapped),
                LayoutFile.Image(offset: 90, src: "/img/logo.png", samples: viewports.map { LayoutFile.Sample(viewport: $0, width: 100, height: 50) }),
                LayoutFile.Image(offset: 200, src: "https://example.com/other.jpg", samples: [LayoutFile.Sample(viewport: 320, width: 10, height: 10)]),
            ],
            backgrounds: [
                LayoutFile.Background(element: "html > body:nth-child(2) > div:nth-child(3)", layer: 0, url: "/img/logo.png", size: "auto",
                                      samples: viewports.map { LayoutFile.BackgroundSample(viewport: $0, areaWidth: 300, areaHeight: 100, paintedWidth: 100, paintedHeight: 50) },
                                      sheet: "css/site.css", selector: ".logo"),
            ],
            restored: restored)
        return LayoutFile(pages: ["index.html": page])
    }

    static func cost(_ layout: LayoutFile = layout(), picture: Bool = true) -> PageViewCost {
        PageViewCost(layout: layout, images: images, fileBytes: ["img/logo.png": 1000], picture: picture) { page, src in
            if src.hasPrefix("https:") { return nil }
            return src.hasPrefix("/") ? String(src.dropFirst()) : src
        }
    }

    static func fetches(_ cost: PageViewCost, image: Int = 0) -> [String: (before: String, after: String, legacy: String)] {
        var result: [String: (before: String, after: String, legacy: String)] = [:]
        for fetch in cost.pages[0].images[image].fetches { result[fetch.profile] = (fetch.before.path, fetch.after.path, fetch.legacy.path) }
        return result
    }

    @Test("a fluid image: the box measured at or below each profile's width times its DPR picks the w candidate, AVIF in a <picture>")
    func fluidImage() throws {
        let cost = Self.cost()
        let photo = Self.fetches(cost)
        // Phone: 375 px -> the 360 px sample, a 180 px box at DPR 3: 400w (2.22x) is nearer than
        // 800w (4.44x) by the geometric mean (3.14 is above 3), so Blink takes it.
        #expect(photo["phone"]! == ("img/photo.jpg", "img/photo-400w.avif", "img/photo-400w.jpg"))
        // Laptop: a 640 px box at DPR 1: 800w (1.25x), the smallest at or above.
        #expect(photo["laptop"]! == ("img/photo.jpg", "img/photo-800w.avif", "img/photo-800w.jpg"))
        // Desktop: a 960 px box at DPR 2 needs 1920 px: the widest file, the plain one's AVIF.
        #expect(photo["desktop"]! == ("img/photo.jpg", "img/photo.avif", "img/photo.jpg"))
        #expect(cost.pages[0].images[0].fetches.map(\.width) == [180, 640, 960])
    }

    @Test("a density image built in place: the master before, the x candidate for the DPR after; a format without that density falls back to the master's")
    func densityImage() {
        let cost = Self.cost()
        let logo = Self.fetches(cost, image: 1)
        #expect(logo["phone"]! == ("img/logo.png", "img/logo@2x.png", "img/logo@2x.png"), "no 2x WebP: the PNG stands in")
        #expect(logo["laptop"]! == ("img/logo.png", "img/logo@1x.webp", "img/logo@1x.png"))
        #expect(logo["desktop"]! == ("img/logo.png", "img/logo@2x.png", "img/logo@2x.png"))
        #expect(cost.pages[0].images[1].fetches[0].before.bytes == 1000, "the master's size, from the files on disk")
        let background = Self.fetches(cost, image: 2)
        #expect(cost.pages[0].images[2].kind == .background)
        #expect(background["laptop"]! == ("img/logo.png", "img/logo@1x.webp", "img/logo@1x.png"), "image-set(): type() first")
        #expect(cost.pages[0].images.count == 3, "another site's image is not counted")
    }

    @Test("totals sum every image per profile, and say which formats the files are in")
    func totals() {
        let cost = Self.cost()
        // Phone: before 6400 + 1000 + 1000; after 400 (400w AVIF) + 900 + 900 (the 2x PNGs).
        #expect(cost.totals[0] == { var total = PageViewCost.Total(profile: "phone"); total.before = 8400; total.after = 2200; total.legacy = 3400; return total }())
        #expect(cost.pages[0].totals == cost.totals)
        #expect(cost.afterFormats == [.png, .avif, .webp] && cost.legacyFormats == [.jpeg, .png], "most bytes first")
    }

    @Test("without <picture>, or for an image written without one, the after files are the master's format; an image of one file, one left without srcset, or a page whose rewrite was undone, costs its plain file")
    func unchanged() {
        let plain = Self.fetches(Self.cost(picture: false))
        #expect(plain["phone"]! == ("img/photo.jpg", "img/photo-400w.jpg", "img/photo-400w.jpg"))
        let unsized = Self.fetches(Self.cost(Self.layout(unsized: "its box follows its natural width")))
        #expect(unsized["phone"]! == ("img/photo.jpg", "img/photo.jpg", "img/photo.jpg"))
        // Written without <picture> (its wrapper changed its style): its srcset's own format.
        let unwrapped = Self.fetches(Self.cost(Self.layout(unwrapped: "its computed `width` changed at a 320 px viewport")))
        #expect(unwrapped["phone"]! == plain["phone"]!)
        let restored = Self.cost(Self.layout(restored: "a box moved"))
        #expect(restored.totals.allSatisfy { $0.before == $0.after && $0.after == $0.legacy })
        var single = Self.photo
        single.variants = single.variants.filter { $0.width == 1600 }
        let one = PageViewCost(layout: Self.layout(), images: ["img/photo.jpg": single], fileBytes: [:], picture: true) { _, src in src }
        #expect(one.pages[0].images[0].fetches.allSatisfy { $0.after == $0.before },
                "one file only: nothing for a srcset to choose from, so the page keeps its plain file, even with an AVIF of it")
    }

    @Test("Blink's selection: the smallest density at or above the DPR, unless the one below is nearer by the geometric mean; at DPR 1 the one above")
    func selection() {
        func pick(_ densities: [Double], dpr: Double) -> String {
            PageViewCost.srcsetChoice(densities.map { PageViewCost.Option(file: .init(path: "\($0)", bytes: 0), density: $0) }, dpr: dpr).path
        }
        #expect(pick([1, 2, 3], dpr: 2) == "2.0")
        #expect(pick([1.9, 2.5], dpr: 2) == "1.9", "sqrt(1.9 * 2.5) = 2.18 is above 2: the smaller one")
        #expect(pick([1.5, 2.5], dpr: 2) == "2.5", "sqrt(1.5 * 2.5) = 1.94: the larger one")
        #expect(pick([0.9, 1.05], dpr: 1) == "1.05", "at DPR 1 never below it")
        #expect(pick([0.5, 0.8], dpr: 2) == "0.8", "the densest when none reaches the DPR")
        #expect(pick([2.5, 4], dpr: 1) == "2.5")
        #expect(PageViewCost.box(at: 375, in: [(320, 1), (360, 2), (400, 3)]) == 2)
        #expect(PageViewCost.box(at: 300, in: [(320, 1), (360, 2)]) == 1, "narrower than every sample: the narrowest")
    }
}
