import DPPXCore
import Testing

@Suite("Width ladders from measured boxes")
struct MeasuredLadderTests {
    /// A viewport every 40 px from 320 to 2560, as the coarse ladder measures.
    static let viewports: [Double] = stride(from: 320.0, through: 2560, by: 40).map { $0 }

    /// The bytes `widths` send over the needs of `boxes` (each box at each density, the
    /// narrowest rung at least as wide, the master above), over those of exact files.
    static func byteRatio(_ widths: [Int], boxes: [Double]) -> Double {
        var sent = 0.0, exact = 0.0
        for box in boxes {
            for density in MeasuredLadder.densities {
                var need = (box * density - 0.01).rounded(.up)
                if need >= Double(widths.last!) { if density == 3 { continue }; need = Double(widths.last!) }
                let rung = Double(widths.first { Double($0) >= need }!)
                sent += rung * rung
                exact += need * need
            }
        }
        return sent / exact
    }

    @Test("a fixed 200 px logo gets its 1x, 1.5x, 2x and 3x widths where fewer would cost over the byte budget, and the master's")
    func logo() {
        let logo = MeasuredLadder(masterWidth: 1000, boxWidths: Self.viewports.map { _ in 200 })
        #expect(logo.widths.last == 1000 && logo.widths.count <= 5, "\(logo.widths)")
        #expect(logo.byteRatio <= MeasuredLadder.byteBudget, "\(logo)")
        #expect(MeasuredLadder(masterWidth: 500, boxWidths: [200]).widths.allSatisfy { $0 <= 500 }, "nothing above the master")
    }

    @Test("fractional boxes round up: the file is never narrower than the box (to a hundredth of a pixel)")
    func roundsUp() {
        let ladder = MeasuredLadder(masterWidth: 4000, boxWidths: [426.67])
        #expect(ladder.widths.first == 427 || ladder.widths.first == 640, "\(ladder.widths)")
        #expect(ladder.widths.allSatisfy { $0 == 4000 || [427, 640, 854, 1280].contains($0) }, "rungs are needs: \(ladder.widths)")
    }

    @Test("a full-width 1600 px master measured from 320 to 2560 px: a handful of files, within the byte budget of exact files, every need served within the stretch")
    func fullWidth() {
        let boxes = Self.viewports.map { min($0 - 16, 1600) }
        let ladder = MeasuredLadder(masterWidth: 1600, boxWidths: boxes)
        #expect(ladder.widths.count <= 8, "a rung every 7 % of width took 25: \(ladder.widths)")
        #expect(ladder.widths.last == 1600)
        #expect(ladder.byteRatio <= MeasuredLadder.byteBudget, "\(ladder)")
        #expect(abs(ladder.byteRatio - Self.byteRatio(ladder.widths, boxes: boxes)) < 1e-9, "the ratio is what the rungs send")
        for box in boxes {
            for density in [1.0, 1.5, 2] {
                let need = min(1600, (box * density - 0.01).rounded(.up))
                let rung = ladder.widths.first { Double($0) >= need }!
                #expect(Double(rung) <= need * MeasuredLadder.widestStretch, "\(need) -> \(rung)")
            }
        }
    }

    @Test("no ladder of as many rungs sends fewer bytes: the search is exact (checked against every ladder of the needs' widths)")
    func cheapest() {
        let boxes: [Double] = [300, 310, 520, 540, 800, 1000]
        let ladder = MeasuredLadder(masterWidth: 3000, boxWidths: boxes)
        var needs = Set<Int>()
        for box in boxes { for density in MeasuredLadder.densities { needs.insert(Int((box * density - 0.01).rounded(.up))) } }
        let candidates = needs.filter { $0 < 3000 }.sorted()
        let size = ladder.widths.count - 1
        var best = Double.infinity
        func search(_ start: Int, _ chosen: [Int]) {
            if chosen.count == size {
                let widths = chosen + [3000]
                let fits = needs.allSatisfy { need in
                    let rung = widths.first { $0 >= min(need, 3000) }!
                    return Double(rung) <= Double(need) * MeasuredLadder.widestStretch || need >= 3000
                }
                if fits { best = min(best, Self.byteRatio(widths, boxes: boxes)) }
                return
            }
            guard start < candidates.count else { return }
            for index in start..<candidates.count { search(index + 1, chosen + [candidates[index]]) }
        }
        search(0, [])
        #expect(abs(ladder.byteRatio - best) < 1e-9, "\(ladder) against \(best)")
    }

    @Test("needs above the master are the master, which is always the top")
    func capped() {
        #expect(MeasuredLadder(masterWidth: 800, boxWidths: [600]).widths.last == 800)
        #expect(MeasuredLadder(masterWidth: 800, boxWidths: [600]).widths.allSatisfy { $0 <= 800 })
        #expect(MeasuredLadder(masterWidth: 800, boxWidths: []).widths == [800])
    }

    @Test("thousands of needs over a wide span: at most the cap, found quickly")
    func manyNeeds() {
        let boxes = (0..<4000).map { 20 + Double($0) * 0.9 }
        let clock = ContinuousClock()
        var ladder: MeasuredLadder?
        let elapsed = clock.measure { ladder = MeasuredLadder(masterWidth: 9000, boxWidths: boxes) }
        #expect(ladder!.widths.count <= MeasuredLadder.maximumRungs, "\(ladder!.widths)")
        #expect(elapsed < .seconds(5), "\(elapsed)")
    }
}

@Suite("Painted size of a background layer")
struct BackgroundSizeTests {
    private let photo = (width: 1600.0, height: 900.0)

    @Test("cover fills the box, cropping the longer side")
    func cover() throws {
        let size = try #require(BackgroundSize(computed: "cover")?.painted(image: photo, area: (1280, 504)))
        #expect(size.width == 1280 && abs(size.height - 720) < 1e-9)
        let tall = try #require(BackgroundSize.cover.painted(image: photo, area: (500, 700)))
        #expect(abs(tall.width - 700 * 16 / 9) < 1e-9 && tall.height == 700, "a tall box needs a file wider than the box")
    }

    @Test("contain fits inside the box")
    func contain() throws {
        let size = try #require(BackgroundSize(computed: "contain")?.painted(image: photo, area: (500, 700)))
        #expect(size.width == 500 && abs(size.height - 281.25) < 1e-9)
    }

    @Test("lengths, percentages and auto resolve against the area and the image's aspect", arguments: [
        ("auto", 1600.0, 900.0),
        ("auto auto", 1600.0, 900.0),
        ("320px", 320.0, 180.0),
        ("320px auto", 320.0, 180.0),
        ("auto 90px", 160.0, 90.0),
        ("50%", 400.0, 225.0),
        ("50% 10%", 400.0, 60.0),
        ("100px 100px", 100.0, 100.0),
    ])
    func explicit(text: String, width: Double, height: Double) throws {
        let size = try #require(BackgroundSize(computed: text)?.painted(image: photo, area: (800, 600)))
        #expect(abs(size.width - width) < 1e-9 && abs(size.height - height) < 1e-9)
    }

    @Test("nothing painted, or a value a computed style never has, is nil")
    func none() {
        #expect(BackgroundSize.cover.painted(image: photo, area: (0, 500)) == nil)
        #expect(BackgroundSize(computed: "0px auto")?.painted(image: photo, area: (800, 600)) == nil)
        #expect(BackgroundSize(computed: "10em") == nil)
        #expect(BackgroundSize(computed: "cover cover") == nil)
    }
}
