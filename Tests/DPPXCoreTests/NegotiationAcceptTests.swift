import DPPXCore
import Testing

@Suite("Accept header")
struct NegotiationAcceptTests {
    static let chromium = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
    static let firefox = "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"
    static let safari = "image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"

    @Test("q-values are read in thousandths, default 1")
    func qualities() {
        let accept = AcceptHeader(["image/webp;q=0.9, image/avif ; q=0.5,image/png;Q=1.0, text/html;q=0"])
        #expect(accept.explicitQuality(of: "image/webp") == 900)
        #expect(accept.explicitQuality(of: "image/avif") == 500)
        #expect(accept.explicitQuality(of: "image/png") == 1000)
        #expect(accept.explicitQuality(of: "text/html") == 0)
        #expect(accept.explicitQuality(of: "image/jpeg") == nil)
    }

    @Test("the most specific range decides the weight")
    func specificity() {
        let accept = AcceptHeader([Self.firefox])
        #expect(accept.quality(of: "image/avif") == 1000)
        #expect(accept.quality(of: "image/jpeg") == 800)
        #expect(accept.quality(of: "text/plain") == 500)
        #expect(accept.explicitQuality(of: "image/jpeg") == nil)
    }

    @Test("media types compare case-insensitively")
    func caseInsensitive() {
        #expect(AcceptHeader(["IMAGE/AVIF"]).explicitQuality(of: "image/avif") == 1000)
    }

    @Test("malformed ranges are skipped, the rest still counts", arguments: [
        "image/avif;q=2", "image/avif;q=-1", "image/avif;q=abc", "image/avif;q=0.0001", "*/avif",
        "image", "/avif", "image/", "im age/avif", "image/avif/x", "",
    ])
    func malformed(range: String) {
        let accept = AcceptHeader(["\(range), image/webp"])
        #expect(accept.explicitQuality(of: "image/avif") == nil)
        #expect(accept.explicitQuality(of: "image/webp") == 1000)
    }

    @Test("no header at all is not the same as an empty one")
    func presence() {
        #expect(!AcceptHeader([]).isPresent)
        #expect(AcceptHeader([""]).isPresent)
    }

    @Test("an absurdly long header is read only in part")
    func bounded() {
        let many = Array(repeating: "text/x-\(Int.random(in: 0...9))", count: 1000).joined(separator: ",")
        let accept = AcceptHeader([many + ",image/avif"])
        #expect(accept.ranges.count <= AcceptHeader.maximumRanges)
        #expect(accept.explicitQuality(of: "image/avif") == nil)
    }
}
