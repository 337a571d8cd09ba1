import DPPXCore
import Testing

@Suite("Width ladders of fluid images")
struct WidthLadderTests {
    @Test("listed widths above the master's are skipped, and the master's width is always the top")
    func explicitBounds() {
        let ladder = WidthLadder(masterWidth: 1000, request: .explicit([480, 960, 1440, 1920]))
        #expect(ladder.widths == [480, 960, 1000])
        #expect(ladder.skipped == [1440, 1920])
        #expect(WidthLadder(masterWidth: 960, request: .explicit([480, 960])).widths == [480, 960], "the master's width is not repeated")
        #expect(WidthLadder(masterWidth: 300, request: .explicit([480])).widths == [300], "a master narrower than every width gives itself only")
    }

    @Test("the automatic ladder never goes above the master, ends at it and stays above the smallest width",
          arguments: [320, 321, 500, 800, 1000, 1920, 2560, 3840, 8000])
    func autoBounds(masterWidth: Int) {
        let widths = WidthLadder(masterWidth: masterWidth, request: .auto).widths
        #expect(widths.last == masterWidth)
        #expect(widths == widths.sorted() && Set(widths).count == widths.count)
        #expect(widths.allSatisfy { $0 <= masterWidth })
        #expect(widths.dropLast().allSatisfy { $0 >= WidthLadder.autoMinimumWidth })
    }

    @Test("a master no wider than a phone screen gets no smaller copies")
    func small() {
        #expect(WidthLadder(masterWidth: 200, request: .auto).widths == [200])
        #expect(WidthLadder(masterWidth: 428, request: .auto).widths == [428], "428 / 1.34 is under 320, as docs/fluid-images.md says")
        #expect(WidthLadder(masterWidth: 429, request: .auto).widths == [320, 429])
    }

    @Test("neighbouring automatic rungs differ by the set byte ratio (estimated from pixels): no near-duplicates",
          arguments: [500, 1000, 1920, 4000])
    func noNearDuplicates(masterWidth: Int) {
        let widths = WidthLadder(masterWidth: masterWidth, request: .auto).widths
        for (small, large) in zip(widths, widths.dropFirst()) {
            let byteRatio = Double(large * large) / Double(small * small)
            #expect(abs(byteRatio - WidthLadder.autoByteRatio) < 0.02, "\(small) -> \(large): \(byteRatio)")
        }
    }

    @Test("a 1920 px master's automatic ladder, as documented in docs/fluid-images.md")
    func documented() {
        #expect(WidthLadder(masterWidth: 1920, request: .auto).widths == [329, 442, 593, 795, 1067, 1431, 1920])
    }

    @Test("a rung's height follows the aspect ratio, half up, and the top is the master's size")
    func heights() {
        let master = PixelSize(width: 1001, height: 667)
        #expect(WidthLadder.size(ofWidth: 1001, master: master) == master)
        #expect(WidthLadder.size(ofWidth: 500, master: master) == PixelSize(width: 500, height: 333))
        #expect(WidthLadder.size(ofWidth: 1, master: PixelSize(width: 1000, height: 10)).height == 1)
    }

    @Test("widths parse from 'auto' or a list; anything else names the bad entry", arguments: [
        ("auto", WidthRequest.auto), ("AUTO", .auto), ("960,480", .explicit([480, 960])), ("480, 480 ,960", .explicit([480, 960])),
    ])
    func parsing(text: String, request: WidthRequest) throws {
        #expect(try WidthRequest(parsing: text) == request)
    }

    @Test("bad widths are refused", arguments: ["", "0", "480,", "-480", "48.5", "480w", "1000001", "auto,480"])
    func badWidths(text: String) {
        #expect(throws: WidthListError.self) { try WidthRequest(parsing: text) }
    }
}
