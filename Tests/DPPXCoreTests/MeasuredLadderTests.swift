import DPPXCore
import Testing

@Suite("Width ladders from measured boxes")
struct MeasuredLadderTests {
    @Test("a fixed 200 px logo gets exactly its 1x, 1.5x, 2x and 3x widths, and the master's")
    func logo() {
        #expect(MeasuredLadder(masterWidth: 1000, boxWidths: [200, 200]).widths == [200, 300, 400, 600, 1000])
        #expect(MeasuredLadder(masterWidth: 500, boxWidths: [200]).widths == [200, 300, 400, 500], "no 3x rung above the master")
    }

    @Test("fractional boxes round up: the file is never narrower than the box (to a hundredth of a pixel)")
    func roundsUp() {
        #expect(MeasuredLadder(masterWidth: 4000, boxWidths: [426.67]).widths == [427, 640, 854, 1280, 4000])
    }

    @Test("needs within the byte step share the wider file; no rung within the step of the next")
    func merged() {
        let ladder = MeasuredLadder(masterWidth: 4000, boxWidths: Array(stride(from: 300.0, through: 1300, by: 5)))
        for (small, large) in zip(ladder.widths, ladder.widths.dropFirst().dropLast()) {
            #expect(Double(large * large) / Double(small * small) > MeasuredLadder.byteStep, "\(small) and \(large)")
        }
        // Every need is served by a rung at least as wide and within the step.
        for box in stride(from: 300.0, through: 1300, by: 5) {
            for density in [1.0, 1.5, 2, 3] {
                let need = (box * density).rounded(.up)
                let rung = ladder.widths.first { Double($0) >= need }!
                #expect(Double(rung * rung) / (need * need) <= MeasuredLadder.byteStep + 0.001 || rung == 4000, "\(need) -> \(rung)")
            }
        }
    }

    @Test("needs above the master are the master, which is always the top")
    func capped() {
        #expect(MeasuredLadder(masterWidth: 800, boxWidths: [600]).widths == [600, 800])
        #expect(MeasuredLadder(masterWidth: 800, boxWidths: []).widths == [800])
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
