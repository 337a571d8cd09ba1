import DPPXCore
import Testing

@Suite("Variant choice: the smallest acceptable format")
struct NegotiationSmallestTests {
    /// `hero` at 1x and 2x of a 400x250 box (a JPEG master), each format's bytes per density
    /// as given: the sizes a build records in its manifest.
    static func hero(_ bytes: [ImageFormat: [Int]]) -> Manifest.Image {
        var variants: [Manifest.Variant] = []
        for (format, sizes) in bytes {
            for (density, size) in zip([Density(1), Density(2)], sizes) {
                variants.append(Manifest.Variant(
                    path: "hero\(density.fileSuffix).\(format.fileExtension)", density: density, format: format,
                    size: PixelSize(width: 400 * density.milli / 1000, height: 250 * density.milli / 1000),
                    bytes: size, hash: "\(format)\(density.milli)"))
            }
        }
        return Manifest.Image(source: "hero.jpg", path: "hero.jpg", sourceHash: "abc", sourceDensity: Density(2),
                              cssSize: PixelSize(width: 400, height: 250), densityIndependent: false,
                              skippedDensities: [], variants: variants)
    }

    /// A request from Chromium (client hints) or from a browser without them (`hinted: false`).
    static func choose(_ image: Manifest.Image, dpr: String = "1", hinted: Bool = true, accept: String) -> VariantChoice? {
        let dpr = hinted ? ClientDPR(query: nil, secCHDPR: [dpr], dpr: [], cookies: CookieHeader([]))
            : ClientDPR(query: nil, secCHDPR: [], dpr: [], cookies: CookieHeader(["dpr=\(dpr)"]))
        return negotiatedChoice(image: image, dpr: dpr, accept: AcceptHeader([accept]))
    }

    static let chromium = NegotiationAcceptTests.chromium
    static let firefox = NegotiationAcceptTests.firefox
    static let safari = NegotiationAcceptTests.safari

    @Test("a photo whose AVIF is smaller than its JXL gets AVIF, and the reverse gets JXL")
    func smallerWins() {
        let avifSmaller = Self.hero([.jpeg: [4000, 12000], .webp: [3000, 9000], .avif: [1500, 4000], .jxl: [3200, 9500]])
        #expect(Self.choose(avifSmaller, accept: Self.chromium)?.variant.path == "hero.avif")
        #expect(Self.choose(avifSmaller, dpr: "2", accept: Self.chromium)?.variant.path == "hero@2x.avif")
        let jxlSmaller = Self.hero([.jpeg: [4000, 12000], .webp: [3000, 9000], .avif: [2500, 8000], .jxl: [2400, 7000]])
        #expect(Self.choose(jxlSmaller, accept: Self.chromium)?.variant.path == "hero.jxl")
        #expect(Self.choose(jxlSmaller, dpr: "2", accept: Self.chromium)?.variant.path == "hero@2x.jxl")
        #expect(Self.choose(jxlSmaller, accept: Self.safari)?.variant.path == "hero.jxl")
    }

    @Test("each density gets its own smallest file")
    func perDensity() {
        let image = Self.hero([.jpeg: [4000, 12000], .avif: [2000, 8000], .jxl: [2500, 7000]])
        #expect(Self.choose(image, dpr: "1", accept: Self.chromium)?.variant.path == "hero.avif")
        #expect(Self.choose(image, dpr: "2", accept: Self.chromium)?.variant.path == "hero@2x.jxl")
    }

    @Test("a client that does not name JPEG XL never gets it, however small")
    func firefoxGetsNoJXL() {
        let image = Self.hero([.jpeg: [4000, 12000], .webp: [3000, 9000], .avif: [2500, 8000], .jxl: [1000, 3000]])
        #expect(Self.choose(image, accept: Self.firefox)?.variant.path == "hero.avif")
        #expect(Self.choose(image, accept: "image/*")?.variant.path == "hero.jpg")
        #expect(Self.choose(image, accept: "*/*")?.variant.path == "hero.jpg")
    }

    @Test("only the formats at the highest q-value compete on size")
    func qValuesFirst() {
        let image = Self.hero([.jpeg: [4000, 12000], .avif: [2500, 8000], .jxl: [1000, 3000]])
        #expect(Self.choose(image, accept: "image/jxl;q=0.9,image/avif,*/*;q=0.5")?.variant.format == .avif)
        #expect(Self.choose(image, accept: "image/jxl;q=0.9,image/avif;q=0.9,*/*;q=0.5")?.variant.format == .jxl)
        #expect(Self.choose(image, accept: "image/jxl;q=0,image/avif,*/*")?.variant.format == .avif)
    }

    @Test("the master's own format competes too when accepted as highly: a JPEG smaller than its WebP is sent")
    func primaryCompetes() {
        let image = Self.hero([.jpeg: [2000, 6000], .webp: [3000, 9000]])
        #expect(Self.choose(image, accept: Self.chromium)?.variant.format == .jpeg)
        #expect(Self.choose(image, accept: "image/webp,*/*;q=0.8")?.variant.format == .webp)
    }

    @Test("unknown sizes (0 bytes) fall back to AVIF, WebP, JPEG XL, then the master's format")
    func unknownSizes() {
        let image = Self.hero([.jpeg: [0, 0], .webp: [0, 0], .avif: [0, 0], .jxl: [0, 0]])
        #expect(Self.choose(image, accept: Self.chromium)?.variant.format == .avif)
        let noAVIF = Self.hero([.jpeg: [0, 0], .webp: [0, 0], .jxl: [0, 0]])
        #expect(Self.choose(noAVIF, accept: Self.chromium)?.variant.format == .webp)
        #expect(Self.choose(noAVIF, accept: "image/jxl,*/*")?.variant.format == .jxl)
    }

    @Test("a JXL answer says its density as AVIF and WebP answers do: Content-DPR with hints, a JPEG carrier without")
    func density() {
        let image = Self.hero([.jpeg: [4000, 12000], .avif: [2500, 8000], .jxl: [2000, 7000]])
        let hinted = Self.choose(image, dpr: "2", accept: Self.chromium)
        #expect(hinted?.variant.path == "hero@2x.jxl")
        #expect(hinted?.signal == .contentDPR(Density(2)))
        #expect(hinted?.vary.contains("Accept") == true)
        let cookie = Self.choose(image, dpr: "2", hinted: false, accept: Self.safari)
        #expect(cookie?.variant.path == "hero@2x.jpg")
        #expect(cookie?.signal == .exif(ExifDensity(pixelSize: PixelSize(width: 800, height: 500), cssSize: PixelSize(width: 400, height: 250))!))
        #expect(Self.choose(image, dpr: "1", hinted: false, accept: Self.safari)?.variant.path == "hero.jxl")
    }

    @Test("pages list formats by the bytes the manifest records, fewest first; by the usual order when unknown")
    func formatsBySize() {
        #expect(Self.hero([.jpeg: [4000, 12000], .avif: [2500, 8000], .jxl: [2000, 7000], .webp: [3000, 9000]]).formatsBySize
            == [.jxl, .avif, .webp, .jpeg])
        #expect(Self.hero([.jpeg: [4000, 12000], .avif: [1500, 4000], .jxl: [2000, 7000]]).formatsBySize == [.avif, .jxl, .jpeg])
        #expect(Self.hero([.jpeg: [0, 0], .avif: [0, 0], .jxl: [0, 0], .webp: [0, 0]]).formatsBySize == [.avif, .webp, .jxl, .jpeg])
    }
}
