import DPPXCore
import Testing

/// Fluid backgrounds drawn with `background-size: cover` in boxes taller than the image's
/// aspect: the queries look at the viewport's height too, so the file is at least as wide as
/// cover draws it.
@Suite("Render: cover backgrounds")
struct CoverBackgroundTests {
    static let widths = [329, 442, 593, 795, 1067, 1431, 1920]

    /// The width the last matching block of `background` names for a viewport of `width` x
    /// `height` CSS px at `density`, evaluating each query alternative's features.
    static func chosen(_ background: FluidBackground, widths: [Int], width: Int, height: Int, density: Density) -> Int {
        var chosen = widths[0]
        for step in background.steps {
            let matches = step.query.components(separatedBy: ", ").contains { alternative in
                if alternative == "all" { return true }
                var matches = true
                for feature in alternative.components(separatedBy: " and ") {
                    let inner = feature.dropFirst().dropLast()
                    let parts = inner.components(separatedBy: ": ")
                    guard parts.count == 2 else { Issue.record("unexpected feature \(feature)"); return false }
                    switch parts[0] {
                    case "min-width": matches = matches && Int(parts[1].dropLast(2))! <= width
                    case "min-height": matches = matches && Int(parts[1].dropLast(2))! <= height
                    case "min-resolution": matches = matches && Density(parsing: String(parts[1].dropLast(4)))! <= density
                    case "-webkit-min-device-pixel-ratio": matches = matches && Density(parsing: parts[1])! <= density
                    default: Issue.record("unexpected feature \(feature)"); return false
                    }
                }
                return matches
            }
            if matches { chosen = step.width }
        }
        return chosen
    }

    @Test("a box's sides parse from vw, vh and px; one value is the height of a box as wide as the viewport")
    func parsing() {
        #expect(CoverBox(parsing: "100vw 100vh") == CoverBox(width: .viewport(percent: 100), height: .viewport(percent: 100)))
        #expect(CoverBox(parsing: "100vh") == CoverBox(width: .viewport(percent: 100), height: .viewport(percent: 100)))
        #expect(CoverBox(parsing: "826px") == CoverBox(width: .viewport(percent: 100), height: .pixels(826)))
        #expect(CoverBox(parsing: " 50vw  80vh ") == CoverBox(width: .viewport(percent: 50), height: .viewport(percent: 80)))
        #expect(CoverBox(parsing: "1200px 600px")?.description == "1200px 600px")
        for bad in ["", "100", "100vh 100vw", "100vw", "-5px", "0vh", "1.5vh", "100vw 100vh 1px", "100%", "auto"] {
            #expect(CoverBox(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test("a full-screen cover hero gets the smallest file at least max(width, height x aspect) x DPR wide", arguments: [
        (500, 701), (375, 812), (1280, 800), (1920, 1080), (1280, 400), (800, 1280), (2560, 1440),
    ] as [(Int, Int)])
    func fullScreen(width: Int, height: Int) {
        let aspect = PixelSize(width: 1900, height: 1000)
        let background = FluidBackground(widths: Self.widths, cover: CoverBox(parsing: "100vw 100vh"), aspect: aspect)
        for density in FluidBackground.densities {
            let needed = max(Double(width), Double(height) * 1.9) * density.value
            let expected = Self.widths.first { Double($0) >= needed } ?? Self.widths.last!
            #expect(Self.chosen(background, widths: Self.widths, width: width, height: height, density: density) == expected,
                    "\(width)x\(height) at \(density)x")
        }
    }

    @Test("a fixed-height section needs its file at every viewport: the resolution alone selects it")
    func fixedHeight() {
        // A 3:1 section 826 px tall is drawn 2478 CSS px wide whatever the viewport.
        let widths = [593, 1067, 1920, 2560]
        let background = FluidBackground(widths: widths, cover: CoverBox(parsing: "826px"), aspect: PixelSize(width: 3000, height: 1000))
        for (width, height) in [(500, 900), (1280, 800)] {
            for density in FluidBackground.densities {
                let needed = max(Double(width), 826 * 3) * density.value
                let expected = widths.first { Double($0) >= needed } ?? widths.last!
                #expect(Self.chosen(background, widths: widths, width: width, height: height, density: density) == expected)
            }
        }
        #expect(background.steps.last?.query == "all", "every screen needs the widest file: \(background.steps.map(\.query))")
    }

    @Test("without a box, the queries are over the width alone, as before")
    func widthOnly() {
        let plain = FluidBackground(widths: Self.widths)
        #expect(!plain.steps.contains { $0.query.contains("min-height") })
        #expect(plain.steps[0].query.hasPrefix("(min-width: 330px), (min-width: 220px) and (-webkit-min-device-pixel-ratio: 1.5)"))
        #expect(FluidBackground(widths: Self.widths, cover: CoverBox(parsing: "100vw 1px"), aspect: PixelSize(width: 2, height: 1)).steps == plain.steps)
    }

    @Test("a rule's cover reaches the stylesheet: min-height queries for that background only")
    func stylesheet() throws {
        var rules = RenderFixtures.fluidRules
        var cover = ImageRule(match: [PathGlob("hero.jpg")])
        cover.cover = CoverBox(parsing: "100vw 100vh")
        rules.append(cover)
        let css = try RenderFixtures.stylesheet().render(manifest: RenderFixtures.fluid, urls: .relative(""),
                                                        options: StylesheetOptions(rules: rules))
        let hero = try #require(css.components(separatedBy: "\n\n").first { $0.contains("hero-442w.jpg") && $0.hasPrefix("@media") })
        // 329 px below, a 1920x1080 image: past 329 / (16/9) = 185 px of height at DPR 1.
        #expect(hero.hasPrefix("@media (min-width: 330px), (min-height: 186px), (min-width: 220px) and (-webkit-min-device-pixel-ratio: 1.5)"), "\(hero)")
        let card = try #require(css.components(separatedBy: "\n\n").first { $0.contains("cards/a.jpg") && $0.hasPrefix("@media") })
        #expect(!card.contains("min-height"), "\(card)")
    }
}
