import DPPXCore
import Testing

@Suite("How a negotiated answer says its density: EXIF, Content-DPR or nothing")
struct NegotiationSignalTests {
    /// `images/hero` at 1, 1.5 and 2x of a 400x250 box, the master in `primary`, plus `extra` formats.
    static func photo(_ primary: ImageFormat, extra: [ImageFormat] = []) -> Manifest.Image {
        NegotiationChoiceTests.hero(formats: [primary] + extra)
    }

    static func hint(_ value: String) -> ClientDPR { ClientDPR(query: nil, secCHDPR: [value], dpr: [], cookies: CookieHeader([])) }
    static func cookie(_ value: String) -> ClientDPR { ClientDPR(query: nil, secCHDPR: [], dpr: [], cookies: CookieHeader(["dpr=\(value)"])) }

    static func exif(_ width: Int, _ height: Int) -> DensitySignal {
        .exif(ExifDensity(pixelSize: PixelSize(width: width, height: height), cssSize: PixelSize(width: 400, height: 250))!)
    }

    @Test("JPEG: EXIF density for every client, hints or cookie; nothing at 1x")
    func jpeg() {
        let image = Self.photo(.jpeg)
        #expect(negotiatedChoice(image: image, dpr: Self.hint("2"), accept: AcceptHeader([]))?.signal == Self.exif(800, 500))
        #expect(negotiatedChoice(image: image, dpr: Self.cookie("1.5"), accept: AcceptHeader([]))?.signal == Self.exif(600, 375))
        #expect(negotiatedChoice(image: image, dpr: Self.hint("1"), accept: AcceptHeader([]))?.signal == DensitySignal.none)
        let query = ClientDPR(query: "2", secCHDPR: [], dpr: [], cookies: CookieHeader([]))
        #expect(negotiatedChoice(image: image, dpr: query, accept: AcceptHeader([]))?.signal == Self.exif(800, 500))
    }

    @Test("PNG: eXIf for a client without hints (Firefox), Content-DPR for one with hints (Chromium ignores eXIf)")
    func png() {
        let image = Self.photo(.png)
        #expect(negotiatedChoice(image: image, dpr: Self.cookie("2"), accept: AcceptHeader([]))?.signal == Self.exif(800, 500))
        #expect(negotiatedChoice(image: image, dpr: Self.hint("2"), accept: AcceptHeader([]))?.signal == .contentDPR(Density(2)))
    }

    @Test("with hints, AVIF and WebP are sent with Content-DPR, which Chromium honours",
          arguments: [NegotiationAcceptTests.chromium, NegotiationAcceptTests.firefox])
    func hintedModernFormats(accept: String) {
        let choice = negotiatedChoice(image: Self.photo(.jpeg, extra: [.webp, .avif]), dpr: Self.hint("2"), accept: AcceptHeader([accept]))
        #expect(choice?.variant.path == "images/hero@2x.avif")
        #expect(choice?.signal == .contentDPR(Density(2)))
    }

    @Test("without hints, above 1x, the master's JPEG or PNG replaces AVIF and WebP: only they carry density",
          arguments: [(ImageFormat.jpeg, "1.5", "images/hero@1.5x.jpg"), (.png, "2", "images/hero@2x.png"), (.jpeg, "3", "images/hero@2x.jpg")])
    func unhintedGetsACarrier(primary: ImageFormat, dpr: String, expected: String) {
        let image = Self.photo(primary, extra: [.webp, .avif])
        for accept in [NegotiationAcceptTests.firefox, NegotiationAcceptTests.safari] {
            let choice = negotiatedChoice(image: image, dpr: Self.cookie(dpr), accept: AcceptHeader([accept]))
            #expect(choice?.variant.path == expected)
            guard case .exif(let exif)? = choice?.signal else {
                Issue.record("expected EXIF density, got \(String(describing: choice?.signal))")
                continue
            }
            #expect(exif.cssSize == PixelSize(width: 400, height: 250))
            #expect(choice?.vary == ["Sec-CH-DPR", "DPR", "Cookie", "Accept"])
            #expect(choice?.isPrivate == true)
        }
    }

    @Test("without hints at 1x, AVIF stays: nothing to correct")
    func unhintedAtOneKeepsAVIF() {
        let image = Self.photo(.jpeg, extra: [.webp, .avif])
        let firstView = ClientDPR(query: nil, secCHDPR: [], dpr: [], cookies: CookieHeader([]))
        let choice = negotiatedChoice(image: image, dpr: firstView, accept: AcceptHeader([NegotiationAcceptTests.firefox]))
        #expect(choice?.variant.path == "images/hero.avif")
        #expect(choice?.signal == DensitySignal.none)
    }

    @Test("a WebP master has no format that carries density: Content-DPR, the last resort")
    func webpMaster() {
        let choice = negotiatedChoice(image: Self.photo(.webp), dpr: Self.cookie("2"), accept: AcceptHeader([NegotiationAcceptTests.firefox]))
        #expect(choice?.variant.path == "images/hero@2x.webp")
        #expect(choice?.signal == .contentDPR(Density(2)))
    }

    @Test("a 2x-only image still varies on the hints: they decide between EXIF and Content-DPR")
    func singleDensityVaries() {
        var image = Self.photo(.png)
        image.variants.removeAll { $0.density != Density(2) }
        let choice = negotiatedChoice(image: image, dpr: Self.hint("1"), accept: AcceptHeader([]))
        #expect(choice?.signal == .contentDPR(Density(2)))
        #expect(choice?.vary == ["Sec-CH-DPR"])
    }
}

extension NegotiationSignalTests {
    @Test("with hints, an odd size Content-DPR cannot make exact (301 px / 2 = 150.5) gets the JPEG and its EXIF")
    func inexactHeaderGetsACarrier() throws {
        var variants: [Manifest.Variant] = []
        for format in [ImageFormat.jpeg, .avif] {
            variants.append(Manifest.Variant(path: "odd.\(format.fileExtension)", density: Density(1), format: format,
                                             size: PixelSize(width: 151, height: 101), bytes: 10, hash: "a\(format)"))
            variants.append(Manifest.Variant(path: "odd@2x.\(format.fileExtension)", density: Density(2), format: format,
                                             size: PixelSize(width: 301, height: 201), bytes: 10, hash: "b\(format)"))
        }
        let image = Manifest.Image(source: "odd@2x.jpg", path: "odd.jpg", sourceHash: "", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: 151, height: 101), densityIndependent: false,
                                   skippedDensities: [], variants: variants)
        let choice = negotiatedChoice(image: image, dpr: Self.hint("2"), accept: AcceptHeader([NegotiationAcceptTests.chromium]))
        #expect(choice?.variant.path == "odd@2x.jpg")
        let exif = try #require(ExifDensity(pixelSize: PixelSize(width: 301, height: 201), cssSize: PixelSize(width: 151, height: 101)))
        #expect(choice?.signal == .exif(exif))
    }
}

extension NegotiationSignalTests {
    @Test("without hints, a PNG master built with a JPEG too gives the smaller JPEG, unless Accept refuses it")
    func smallestCarrier() {
        var image = Self.photo(.png, extra: [.jpeg, .avif])
        image.variants = image.variants.map { variant in
            var variant = variant
            variant.bytes = variant.format == .png ? 50_000 : variant.format == .jpeg ? 9_000 : 2_000
            return variant
        }
        let choice = negotiatedChoice(image: image, dpr: Self.cookie("2"), accept: AcceptHeader([NegotiationAcceptTests.firefox]))
        #expect(choice?.variant.path == "images/hero@2x.jpg")
        let refused = negotiatedChoice(image: image, dpr: Self.cookie("2"), accept: AcceptHeader(["image/avif,image/png,image/jpeg;q=0"]))
        #expect(refused?.variant.path == "images/hero@2x.png")
    }
}

extension NegotiationSignalTests {
    /// A PNG logo shown 151x101 with AVIF: 1.5x is 227x152 (rounded), 2x 302x202.
    static func oddLogo() -> Manifest.Image {
        var variants: [Manifest.Variant] = []
        let sizes = [(Density(1), PixelSize(width: 151, height: 101), ""), (Density(1.5), PixelSize(width: 227, height: 152), "@1.5x"),
                     (Density(2), PixelSize(width: 302, height: 202), "@2x")]
        for format in [ImageFormat.png, .avif] {
            for (density, size, suffix) in sizes {
                variants.append(Manifest.Variant(path: "logo\(suffix).\(format.fileExtension)", density: density, format: format,
                                                 size: size, bytes: 10, hash: "\(suffix)\(format)"))
            }
        }
        return Manifest.Image(source: "logo@2x.png", path: "logo.png", sourceHash: "", sourceDensity: Density(2),
                              cssSize: PixelSize(width: 151, height: 101), densityIndependent: false,
                              skippedDensities: [], variants: variants)
    }

    @Test("with hints and no JPEG, Content-DPR never claims a density the pixels do not divide by: the nearest exact variant instead")
    func inexactHeaderGetsAnExactVariant() {
        let image = Self.oddLogo()
        let chromium = AcceptHeader([NegotiationAcceptTests.chromium])
        // 227 / 1.5 = 151.33, not 151: the 2x (302 / 2 = 151) is sent instead, and says 2.
        let choice = negotiatedChoice(image: image, dpr: Self.hint("1.5"), accept: chromium)
        #expect(choice?.variant.path == "logo@2x.avif")
        #expect(choice?.signal == .contentDPR(Density(2)))
        #expect(negotiatedChoice(image: image, dpr: Self.hint("2"), accept: chromium)?.variant.path == "logo@2x.avif")
        #expect(negotiatedChoice(image: image, dpr: Self.hint("1"), accept: chromium)?.signal == DensitySignal.none)
        // Without an exact denser variant, the 1x: its own size, nothing to say.
        var onlyOdd = image
        onlyOdd.variants.removeAll { $0.density == Density(2) }
        let fallback = negotiatedChoice(image: onlyOdd, dpr: Self.hint("1.5"), accept: chromium)
        #expect(fallback?.variant.path == "logo.avif")
        #expect(fallback?.signal == DensitySignal.none)
        // Every signal the chooser gives divides exactly.
        for dpr in ["1", "1.25", "1.5", "2", "3"] {
            for candidate in [image, onlyOdd] {
                guard let choice = negotiatedChoice(image: candidate, dpr: Self.hint(dpr), accept: chromium),
                      case .contentDPR(let density) = choice.signal else { continue }
                #expect(choice.variant.size.width * 1000 == candidate.cssSize.width * density.milli)
                #expect(choice.variant.size.height * 1000 == candidate.cssSize.height * density.milli)
            }
        }
    }
}
