import DPPXCore
import Testing

@Suite("Variant choice")
struct NegotiationChoiceTests {
    /// `images/hero` at 1, 1.5 and 2x of a 400x250 box, in `formats` (the master's own first).
    static func hero(formats: [ImageFormat] = [.jpeg], densities: [Double] = [1, 1.5, 2]) -> Manifest.Image {
        var variants: [Manifest.Variant] = []
        for density in densities.map(Density.init) {
            for format in formats {
                let ext = format.fileExtension
                variants.append(Manifest.Variant(
                    path: "images/hero\(density.fileSuffix).\(ext)", density: density, format: format,
                    size: PixelSize(width: Int(400 * density.value), height: Int(250 * density.value)),
                    bytes: 1000, hash: "\(format)\(density.milli)"))
            }
        }
        let master = "images/hero.\(formats[0].fileExtension)"
        return Manifest.Image(source: master, path: master, sourceHash: "abc",
                              sourceDensity: Density(2), cssSize: PixelSize(width: 400, height: 250),
                              densityIndependent: false, skippedDensities: [], variants: variants)
    }

    static func dpr(_ header: String?) -> ClientDPR {
        ClientDPR(query: nil, secCHDPR: header.map { [$0] } ?? [], dpr: [], cookies: CookieHeader([]))
    }

    static func choose(_ image: Manifest.Image, dpr: String?, accept: [String] = []) -> VariantChoice? {
        negotiatedChoice(image: image, dpr: Self.dpr(dpr), accept: AcceptHeader(accept))
    }

    @Test("the smallest density at or above the DPR, else the largest", arguments: [
        ("1", "images/hero.jpg"), ("1.2", "images/hero@1.5x.jpg"), ("1.5", "images/hero@1.5x.jpg"),
        ("1.75", "images/hero@2x.jpg"), ("2", "images/hero@2x.jpg"), ("3", "images/hero@2x.jpg"),
        ("0.5", "images/hero.jpg"), ("abc", "images/hero.jpg"),
    ] as [(String, String)])
    func density(dpr: String, expected: String) {
        #expect(Self.choose(Self.hero(), dpr: dpr)?.variant.path == expected)
    }

    @Test("density rule on its own")
    func densityRule() {
        let set = [Density(1), Density(2), Density(3)]
        #expect(VariantChoice.density(for: Density(2.625), among: set) == Density(3))
        #expect(VariantChoice.density(for: Density(4), among: set) == Density(3))
        #expect(VariantChoice.density(for: Density(1), among: []) == nil)
    }

    @Test("browsers' real Accept headers get AVIF when it was built", arguments: [
        NegotiationAcceptTests.chromium, NegotiationAcceptTests.firefox, NegotiationAcceptTests.safari,
    ])
    func browsersGetAVIF(accept: String) {
        let image = Self.hero(formats: [.jpeg, .webp, .avif])
        #expect(Self.choose(image, dpr: "2", accept: [accept])?.variant.path == "images/hero@2x.avif")
    }

    @Test("WebP when AVIF is not accepted or not built")
    func webp() {
        let all = Self.hero(formats: [.jpeg, .webp, .avif])
        #expect(Self.choose(all, dpr: "1", accept: ["image/webp,*/*"])?.variant.path == "images/hero.webp")
        let webpOnly = Self.hero(formats: [.jpeg, .webp])
        #expect(Self.choose(webpOnly, dpr: "1", accept: [NegotiationAcceptTests.chromium])?.variant.path == "images/hero.webp")
    }

    @Test("*/* alone, image/* alone or no Accept mean the master's format", arguments: [["*/*"], ["image/*"], []])
    func masterFormat(accept: [String]) {
        let image = Self.hero(formats: [.jpeg, .webp, .avif])
        #expect(Self.choose(image, dpr: "1", accept: accept)?.variant.format == .jpeg)
    }

    @Test("q-values are honoured")
    func qValues() {
        let image = Self.hero(formats: [.jpeg, .webp, .avif])
        #expect(Self.choose(image, dpr: "1", accept: ["image/avif;q=0.5,image/webp;q=0.9,*/*;q=0.1"])?.variant.format == .webp)
        #expect(Self.choose(image, dpr: "1", accept: ["image/avif;q=0,image/webp;q=0,*/*"])?.variant.format == .jpeg)
        #expect(Self.choose(image, dpr: "1", accept: ["image/jpeg,image/avif;q=0.5"])?.variant.format == .jpeg)
        #expect(Self.choose(image, dpr: "1", accept: ["image/jpeg;q=0,image/webp;q=0.2"])?.variant.format == .webp)
    }

    @Test("Vary names the DPR headers read, and Accept only when formats were negotiated")
    func vary() {
        let single = Self.hero()
        #expect(Self.choose(single, dpr: "2")?.vary == ["Sec-CH-DPR"])
        #expect(Self.choose(single, dpr: nil)?.vary == ["Sec-CH-DPR", "DPR", "Cookie"])
        let multi = Self.hero(formats: [.jpeg, .webp])
        #expect(Self.choose(multi, dpr: "2", accept: ["*/*"])?.vary == ["Sec-CH-DPR", "Accept"])
        let query = ClientDPR(query: "2", secCHDPR: ["1"], dpr: [], cookies: CookieHeader([]))
        #expect(negotiatedChoice(image: single, dpr: query, accept: AcceptHeader([]))?.vary == [])
    }

    @Test("one density and one format: nothing to negotiate, nothing to vary on")
    func nothingToNegotiate() {
        let choice = Self.choose(Self.hero(densities: [1]), dpr: "3")
        #expect(choice?.variant.path == "images/hero.jpg")
        #expect(choice?.vary == [])
        #expect(choice?.isPrivate == false)
    }

    @Test("a density decided by the cookie is private; one decided by a hint is not")
    func privateForCookie() {
        let cookie = ClientDPR(query: nil, secCHDPR: [], dpr: [], cookies: CookieHeader(["dpr=2"]))
        let byCookie = negotiatedChoice(image: Self.hero(), dpr: cookie, accept: AcceptHeader([]))
        #expect(byCookie?.isPrivate == true)
        #expect(byCookie?.variant.density == Density(2))
        #expect(Self.choose(Self.hero(), dpr: "2")?.isPrivate == false)
        #expect(Self.choose(Self.hero(), dpr: nil)?.isPrivate == false)
    }

    @Test("an image without variants has no choice")
    func empty() {
        let image = Manifest.Image(source: "a.jpg", path: "a.jpg", sourceHash: "", sourceDensity: Density(1),
                                   cssSize: PixelSize(width: 1, height: 1), densityIndependent: false,
                                   skippedDensities: [], variants: [])
        #expect(Self.choose(image, dpr: "1") == nil)
    }
}

@Suite("Negotiation: widths of fluid images")
struct NegotiationWidthTests {
    let none = ClientDPR(value: Density(1), source: .none, consulted: [.query, .secCHDPR, .dpr, .cookie])

    @Test("width hints: whole numbers in range only, a list or a repeat is absent", arguments: [
        ("480", 480), (" 480\t", 480), ("100000", 100_000), ("0", nil), ("-1", nil), ("1.5", nil), ("480px", nil), ("", nil),
        ("100001", nil), ("1,2", nil), (String(repeating: "1", count: 400), nil),
    ] as [(String, Int?)])
    func hints(text: String, expected: Int?) {
        let width = ClientWidth(secCHWidth: [text], viewportWidth: [], dpr: none, cookies: CookieHeader([]))
        #expect(width.source == (expected == nil ? .none : .secCHWidth))
        #expect(width.devicePixels == expected ?? ClientWidth.defaultDevicePixels)
    }

    @Test("viewport and cookie widths are CSS px, scaled by the DPR and rounded up")
    func scaled() {
        let dpr = ClientDPR(value: Density(2.625), source: .secCHDPR, consulted: [.query, .secCHDPR])
        #expect(ClientWidth(secCHWidth: [], viewportWidth: ["411"], dpr: dpr, cookies: CookieHeader([])).devicePixels == 1079)
        let cookie = ClientWidth(secCHWidth: [], viewportWidth: [], dpr: dpr, cookies: CookieHeader(["vw=100"]))
        #expect(cookie.devicePixels == 263 && cookie.isPrivate && cookie.source == .cookie)
    }

    @Test("a fluid image's choice snaps to its ladder and never says a density")
    func choice() throws {
        let plan = ImagePlan(name: try #require(MasterName(relativePath: "a.jpg")), source: "a.jpg",
                             masterSize: PixelSize(width: 1000, height: 500), hasAlpha: false, animated: false,
                             settings: PlanSettings(sourceDensityGiven: true, widths: .explicit([300, 600])))
        let image = plan.manifestImage(sourceHash: "", files: [:])
        func chosen(_ pixels: Int) -> Int? {
            negotiatedChoice(image: image, dpr: none, accept: AcceptHeader([]),
                          width: ClientWidth(devicePixels: pixels, source: .secCHWidth, varyHeaders: ["Sec-CH-Width"], isPrivate: false))?.variant.width
        }
        #expect([1, 300, 301, 600, 601, 1000, 5000].map(chosen) == [300, 300, 600, 600, 1000, 1000, 1000])
        let unknown = try #require(negotiatedChoice(image: image, dpr: none, accept: AcceptHeader([])))
        #expect(unknown.variant.width == 1000 && unknown.signal == .none)
    }

    @Test("a fluid rung missing in an extra format (not smaller, left out) is sent in the master's format, never a narrower one")
    func missingExtraWidth() throws {
        let plan = ImagePlan(name: try #require(MasterName(relativePath: "a.jpg")), source: "a.jpg",
                             masterSize: PixelSize(width: 1000, height: 500), hasAlpha: false, animated: false,
                             settings: PlanSettings(extraFormats: [.webp], widths: .explicit([300, 600])))
        var image = plan.manifestImage(sourceHash: "", files: [:])
        image.variants.removeAll { $0.path == "a-600w.webp" }
        func chosen(_ pixels: Int) -> String? {
            negotiatedChoice(image: image, dpr: none, accept: AcceptHeader(["image/webp,*/*"]),
                          width: ClientWidth(devicePixels: pixels, source: .secCHWidth, varyHeaders: ["Sec-CH-Width"], isPrivate: false))?.variant.path
        }
        #expect([200, 500, 900].map(chosen) == ["a-300w.webp", "a-600w.jpg", "a.webp"])
    }
}

extension NegotiationChoiceTests {
    @Test("an extra format missing a density (not smaller, left out) gives that density in the master's format, never a lower one")
    func missingExtraDensity() throws {
        var image = Self.hero(formats: [.jpeg, .webp])
        image.variants.removeAll { $0.path == "images/hero@2x.webp" }
        let webp = ["image/webp,*/*"]
        #expect(Self.choose(image, dpr: "2", accept: webp)?.variant.path == "images/hero@2x.jpg")
        #expect(Self.choose(image, dpr: "1.5", accept: webp)?.variant.path == "images/hero@1.5x.webp")
        #expect(Self.choose(image, dpr: "3", accept: webp)?.variant.path == "images/hero@2x.jpg")
        let markup = try RenderFixtures.markup().html([image], urls: .relative(""))
        #expect(markup.contains("<source type=\"image/webp\" srcset=\"images/hero.webp 1x, images/hero@1.5x.webp 1.5x, images/hero@2x.jpg 2x\">"), "\(markup)")
    }
}

extension NegotiationChoiceTests {
    @Test("Vary is the image's, not the chosen file's: a WebP that stops at 1x still varies on the density headers")
    func varyWhateverIsChosen() throws {
        var image = Self.hero(formats: [.jpeg, .webp])
        // The 1.5x and 2x WebP were not smaller than their JPEG, so the build left them out.
        image.variants.removeAll { $0.format == .webp && $0.density != Density(1) }
        let webp = ["image/webp,*/*"]
        let oneX = try #require(Self.choose(image, dpr: "1", accept: webp))
        let twoX = try #require(Self.choose(image, dpr: "2", accept: webp))
        #expect(oneX.variant.path == "images/hero.webp" && twoX.variant.path == "images/hero@2x.jpg")
        #expect(oneX.vary == ["Sec-CH-DPR", "Accept"], "a cache keyed on Accept alone hands this 1x WebP to DPR 2 clients")
        #expect(oneX.vary == twoX.vary)
        let fluid = Manifest.Image(source: "card.jpg", path: "card.jpg", sourceHash: "c", sourceDensity: Density(1),
                                   cssSize: PixelSize(width: 960, height: 540), densityIndependent: false, fluid: true,
                                   intent: .rule, skippedDensities: [], variants: [480, 960].map { width in
                                       Manifest.Variant(path: "card-\(width)w.jpg", density: Density(1), format: .jpeg,
                                                        size: PixelSize(width: width, height: width / 2), bytes: width, hash: "\(width)")
                                   })
        let widths = ["300", "900", "5000"].compactMap { width in
            VariantNegotiator.negotiate(fluid, hints: ClientHints(query: nil, secCHWidth: [width])).choice?.vary
        }
        #expect(widths.count == 3 && Set(widths).count == 1 && widths[0] == ["Sec-CH-Width"], "\(widths)")
    }
}
