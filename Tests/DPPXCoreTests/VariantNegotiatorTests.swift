import DPPXCore
import Testing

@Suite("The negotiator: what an image's plain URL is answered with")
struct VariantNegotiatorTests {
    /// `photo.jpg` at 1x and 2x of a 400x250 box, with `extra` formats (each a little smaller
    /// than the one before, as AVIF, WebP and JPEG XL usually are), stated by `intent`.
    static func photo(intent: SizeIntent?, extra: [ImageFormat] = []) -> Manifest.Image {
        var variants: [Manifest.Variant] = []
        for density in [Density(1), Density(2)] {
            for (rank, format) in ([.jpeg] + extra).enumerated() {
                variants.append(Manifest.Variant(
                    path: "photo\(density.fileSuffix).\(format.fileExtension)", density: density, format: format,
                    size: PixelSize(width: 400 * density.milli / 1000, height: 250 * density.milli / 1000),
                    bytes: 10_000 - rank * 1000, hash: "\(format)\(density.milli)"))
            }
        }
        return Manifest.Image(source: "photo.jpg", path: "photo.jpg", sourceHash: "abc", sourceDensity: Density(2),
                              cssSize: PixelSize(width: 400, height: 250), densityIndependent: false, intent: intent,
                              skippedDensities: [], variants: variants)
    }

    /// `card.jpg`, a fluid image at 480, 960 and 1200 px wide, stated by `intent`.
    static func card(intent: SizeIntent) -> Manifest.Image {
        let variants = [480, 960, 1200].map { width in
            Manifest.Variant(path: width == 1200 ? "card.jpg" : "card-\(width)w.jpg", density: Density(milli: width * 1000 / 1200),
                             format: .jpeg, size: PixelSize(width: width, height: width / 2), bytes: width, hash: "card\(width)")
        }
        return Manifest.Image(source: "card.jpg", path: "card.jpg", sourceHash: "abc", sourceDensity: Density(1),
                              cssSize: PixelSize(width: 1200, height: 600), densityIndependent: false, fluid: true, intent: intent,
                              skippedDensities: [], variants: variants)
    }

    static let chromium = NegotiationAcceptTests.chromium
    static let firefox = NegotiationAcceptTests.firefox

    @Test("an image whose size nobody stated is its own file, whatever the hints: no Vary, no density, shared", arguments: [
        ClientHints(query: nil, secCHDPR: ["2"], accept: [NegotiationAcceptTests.chromium]),
        ClientHints(query: "3", cookie: ["dpr=2; vw=400"], accept: [NegotiationAcceptTests.firefox]),
        ClientHints(query: nil, secCHWidth: ["480"], viewportWidth: ["300"]),
        ClientHints(query: nil),
    ])
    func sizeNotStated(hints: ClientHints) {
        for image in [Self.photo(intent: .default, extra: [.webp, .avif, .jxl]), Self.card(intent: .default)] {
            let negotiation = VariantNegotiator.negotiate(image, hints: hints)
            #expect(negotiation == .ownFile(.sizeNotStated))
            #expect(negotiation.vary.isEmpty)
            #expect(negotiation.choice == nil)
        }
    }

    @Test("a size stated by name, rule or option, or by a manifest older than intents, is negotiated",
          arguments: [SizeIntent.name, .rule, .option, nil])
    func sizeStated(intent: SizeIntent?) throws {
        let choice = try #require(VariantNegotiator.negotiate(Self.photo(intent: intent), hints: ClientHints(query: nil, secCHDPR: ["2"])).choice)
        #expect(choice.variant.path == "photo@2x.jpg")
        #expect(choice.signal == .exif(try #require(ExifDensity(pixelSize: PixelSize(width: 800, height: 500), cssSize: PixelSize(width: 400, height: 250)))))
        #expect(choice.vary == ["Sec-CH-DPR"])
        #expect(choice.dpr.source == .secCHDPR)
        #expect(choice.width == nil, "a density image reads no width")
    }

    @Test("a vector is its own file; an image with no variant listed too")
    func ownFiles() {
        let svg = Manifest.Image(source: "a.svg", path: "a.svg", sourceHash: "", sourceDensity: Density(1),
                                 cssSize: PixelSize(width: 48, height: 48), densityIndependent: true, skippedDensities: [],
                                 variants: [Manifest.Variant(path: "a.svg", density: Density(1), format: .svg,
                                                             size: PixelSize(width: 48, height: 48), bytes: 9, hash: "svg")])
        #expect(VariantNegotiator.negotiate(svg, hints: ClientHints(query: nil, secCHDPR: ["2"])) == .ownFile(.vector))
        var empty = Self.photo(intent: .name)
        empty.variants = []
        #expect(VariantNegotiator.negotiate(empty, hints: ClientHints(query: nil, secCHDPR: ["2"])) == .ownFile(.noVariants))
    }

    @Test("hints read from the request's lines: which one decided, and Vary names every header read")
    func hintsFromLines() throws {
        let image = Self.photo(intent: .name, extra: [.webp, .avif, .jxl])
        // Chromium: JPEG XL is the smallest here, and it carries no EXIF: Content-DPR at 2x.
        let chromium = try #require(VariantNegotiator.negotiate(image, hints: ClientHints(query: nil, secCHDPR: ["2"], accept: [Self.chromium])).choice)
        #expect(chromium.variant.path == "photo@2x.jxl")
        #expect(chromium.signal == .contentDPR(Density(2)))
        #expect(chromium.vary == ["Sec-CH-DPR", "Accept"])
        // Firefox, from the cookie: a JPEG with EXIF, private, varying on every DPR source.
        let firefox = try #require(VariantNegotiator.negotiate(image, hints: ClientHints(query: nil, cookie: ["dpr=2"], accept: [Self.firefox])).choice)
        #expect(firefox.variant.path == "photo@2x.jpg")
        #expect(firefox.dpr.source == .cookie)
        #expect(firefox.isPrivate)
        #expect(firefox.vary == ["Sec-CH-DPR", "DPR", "Cookie", "Accept"])
        // ?dpr= is in the URL: nothing to vary on but Accept.
        let query = try #require(VariantNegotiator.negotiate(image, hints: ClientHints(query: "2", secCHDPR: ["1"], accept: ["*/*"])).choice)
        #expect(query.variant.path == "photo@2x.jpg")
        #expect(query.vary == ["Accept"])
        // Width hints mean nothing to a density image.
        let widthOnly = try #require(VariantNegotiator.negotiate(Self.photo(intent: .name), hints: ClientHints(query: nil, secCHWidth: ["800"])).choice)
        #expect(widthOnly.variant.path == "photo.jpg")
        #expect(widthOnly.vary == ["Sec-CH-DPR", "DPR", "Cookie"])
    }

    @Test("a fluid image: the width hint that decided, its Vary, private from the cookie", arguments: [
        (ClientHints(query: nil, secCHDPR: ["3"], secCHWidth: ["500"]), "card-960w.jpg", ClientWidth.Source.secCHWidth, ["Sec-CH-Width"], false),
        (ClientHints(query: nil, secCHDPR: ["2"], viewportWidth: ["400"]), "card-960w.jpg", .viewportWidth,
         ["Sec-CH-Width", "Sec-CH-Viewport-Width", "Sec-CH-DPR"], false),
        (ClientHints(query: nil, cookie: ["vw=300; dpr=1"]), "card-480w.jpg", .cookie, ["Sec-CH-Width", "Sec-CH-Viewport-Width", "Cookie", "Sec-CH-DPR", "DPR"], true),
        (ClientHints(query: nil), "card.jpg", ClientWidth.Source.none, ["Sec-CH-Width", "Sec-CH-Viewport-Width", "Cookie"], false),
    ] as [(ClientHints, String, ClientWidth.Source, [String], Bool)])
    func fluid(hints: ClientHints, path: String, source: ClientWidth.Source, vary: [String], isPrivate: Bool) throws {
        let choice = try #require(VariantNegotiator.negotiate(Self.card(intent: .rule), hints: hints).choice)
        #expect(choice.variant.path == path)
        #expect(choice.width?.source == source)
        #expect(choice.vary == vary)
        #expect(choice.isPrivate == isPrivate)
        #expect(choice.signal == .none, "a fluid image's size comes from the page")
    }

    @Test("a file that cannot carry EXIF says its density with Content-DPR instead, with the same Vary")
    func densityInHeader() throws {
        let exif = try #require(VariantNegotiator.negotiate(Self.photo(intent: .name), hints: ClientHints(query: nil, secCHDPR: ["2"])).choice)
        let header = exif.sayingDensityInHeader()
        #expect(header.signal == .contentDPR(Density(2)))
        #expect(header.variant == exif.variant && header.vary == exif.vary && header.isPrivate == exif.isPrivate)
        let oneX = try #require(VariantNegotiator.negotiate(Self.photo(intent: .name), hints: ClientHints(query: nil, secCHDPR: ["1"])).choice)
        #expect(oneX.sayingDensityInHeader() == oneX, "nothing to say at 1x")
    }
}
