import DPPXCore
import Testing

@Suite("sizes fitted to measured boxes")
struct SizesFitterTests {
    /// Samples of `box` at every viewport of `viewports`.
    private func samples(_ viewports: some Sequence<Int>, _ box: (Double) -> Double) -> [BoxSample] {
        viewports.map { BoxSample(viewport: Double($0), width: box(Double($0))) }
    }

    /// A Bootstrap-like one-third column: fluid under 576, fixed containers above, a third of
    /// the container less the gutter from 992.
    private func bootstrapThird(_ viewport: Double) -> Double {
        switch viewport {
        case ..<576: viewport - 24
        case ..<768: 516
        case ..<992: 696
        case ..<1200: 936.0 / 3 - 24
        case ..<1400: 1116.0 / 3 - 24
        default: 1296.0 / 3 - 24
        }
    }

    private func sizes(_ fit: SizesFitter.Fit) -> SizesValue? {
        if case .sizes(let value) = fit { return value }
        return nil
    }

    @Test("an occurrence with no box at any viewport (display: none no measuring showed) is refused, naming the first viewport")
    func notDrawn() {
        let fit = SizesFitter().fit(samples(stride(from: 320, through: 1200, by: 40)) { _ in 0 })
        #expect(fit == .refused(.notDrawn(viewport: 320)))
        #expect(SizesFitter().refinements(of: samples([320, 360]) { _ in 0 }).isEmpty)
    }

    @Test("hidden under 768 px by a @media rule: there, the width it is shown at nearest, one constant piece whose bound is pinned like a breakpoint")
    func hiddenAtSomeWidths() throws {
        let box = { (viewport: Double) in viewport < 768 ? 0 : viewport / 3 }
        let coarse = samples(stride(from: 320, through: 1200, by: 40), box)
        #expect(SizesFitter().refinements(of: coarse).contains(780), "the gap where it appears is bisected")
        let measured = samples(Array(stride(from: 320, through: 1200, by: 40)) + [767, 768, 769, 770], box)
        let value = try #require(sizes(SizesFitter().fit(measured)))
        let read = try #require(SizesValue(parsing: value.description))
        for viewport in [320.0, 500, 767] { #expect(abs((read.width(atViewport: viewport) ?? 0) - 256) <= 0.5, "\(value) at \(viewport)") }
        for sample in measured where sample.width > 0 {
            #expect(abs((read.width(atViewport: sample.viewport) ?? 0) - sample.width) <= 0.5, "\(value) at \(sample)")
        }
        #expect(value.description.hasSuffix(", 33.3333vw"), "\(value)")
    }

    @Test("a sample of no box takes the width of the nearest shown sample, the narrower of two as near, in the order given")
    func filledWhereHidden() {
        let given = [BoxSample(viewport: 800, width: 0), BoxSample(viewport: 320, width: 0), BoxSample(viewport: 400, width: 200),
                     BoxSample(viewport: 600, width: 0), BoxSample(viewport: 700, width: 0), BoxSample(viewport: 800, width: 500),
                     BoxSample(viewport: 1000, width: 0)]
        #expect(BoxSample.filledWhereHidden(given).map(\.width) == [500, 200, 200, 200, 500, 500, 500])
        #expect(BoxSample.filledWhereHidden(given).map(\.viewport) == given.map(\.viewport))
        let none = [BoxSample(viewport: 320, width: 0), BoxSample(viewport: 360, width: 0)]
        #expect(BoxSample.filledWhereHidden(none) == none)
        #expect(BoxSample.filledWhereHidden([]) == [])
    }

    @Test("a bound at a breakpoint the page wrote in em or rem is written in em; others stay in px; read back alike")
    func emBreakpoints() throws {
        // One column under 48rem (768 px at 16 px), a third of the viewport from there; a
        // fixed 420 px from 1200 px (a px query). Measured as dppx does: the coarse ladder and
        // both sides of each width a query names.
        let box = { (viewport: Double) in viewport < 768 ? viewport : viewport < 1200 ? viewport / 3 : 420 }
        let measured = samples(Array(stride(from: 320, through: 2560, by: 40)) + [767, 768, 769, 1199, 1200, 1201], box)
        let value = try #require(sizes(SizesFitter(emBreakpoints: [768]).fit(measured)))
        #expect(value.description == "(max-width: 47.99875em) 100vw, (max-width: 1199.98px) 33.3333vw, 420px")
        let read = try #require(SizesValue(parsing: value.description))
        #expect(read.entries.map(\.conditionsInEm) == [true, false, false])
        for sample in measured { #expect(abs((read.width(atViewport: sample.viewport) ?? 0) - sample.width) <= 0.5, "\(sample)") }
        #expect(SizesFitter.firstMiss(of: value.description, at: measured) == nil)
        // rem reads as em: both count the browser's default font in a media condition.
        #expect(SizesValue(parsing: "(max-width: 48rem) 100vw, 50vw")?.width(atViewport: 768) == 768)
        #expect(SizesValue(parsing: "(max-width: 48rem) 100vw, 50vw")?.width(atViewport: 769) == 384.5)
        // Without em breakpoints, the same samples give px bounds.
        #expect(try #require(sizes(SizesFitter().fit(measured))).description == "(max-width: 767.98px) 100vw, (max-width: 1199.98px) 33.3333vw, 420px")
    }

    @Test("a fixed box is one length")
    func fixed() throws {
        let value = try #require(sizes(SizesFitter().fit(samples(stride(from: 320, through: 2560, by: 40)) { _ in 200 })))
        #expect(value.description == "200px")
    }

    @Test("a full-width image is 100vw, a share with a gutter a calc()")
    func fluid() throws {
        let full = try #require(sizes(SizesFitter().fit(samples(stride(from: 320, through: 2560, by: 40)) { $0 })))
        #expect(full.description == "100vw")
        let gutter = try #require(sizes(SizesFitter().fit(samples(stride(from: 320, through: 2560, by: 40)) { $0 / 2 - 24 })))
        #expect(gutter.description == "calc(50vw - 24px)")
        let third = try #require(sizes(SizesFitter().fit(samples(stride(from: 320, through: 2560, by: 40)) { $0 / 3 })))
        #expect(third.description == "33.3333vw")
    }

    @Test("breakpoints found by bisection give one entry a layout piece, each within 0.5 px at every sample")
    func bootstrapGrid() throws {
        let fitter = SizesFitter()
        var measured = samples(stride(from: 320, through: 2560, by: 80), bootstrapThird)
        var rounds = 0
        while case let next = fitter.refinements(of: measured), !next.isEmpty {
            measured += next.map { BoxSample(viewport: $0, width: bootstrapThird($0)) }
            rounds += 1
            #expect(rounds < 20)
        }
        let value = try #require(sizes(fitter.fit(measured)))
        #expect(value.description == "(max-width: 575.98px) calc(100vw - 24px), (max-width: 767.98px) 516px, (max-width: 991.98px) 696px, (max-width: 1199.98px) 288px, (max-width: 1399.98px) 348px, 408px")
        // Every integer viewport, measured or not, now gets its box.
        for viewport in 320...2560 {
            let width = try #require(value.width(atViewport: Double(viewport)))
            #expect(abs(width - bootstrapThird(Double(viewport))) <= 0.5, "at \(viewport)")
        }
    }

    @Test("a breakpoint between two measured viewports is refined at their middle, down to 1 px")
    func refinements() {
        let layout: (Double) -> Double = { $0 < 768 ? 516 : 696 }
        let fitter = SizesFitter()
        var measured = [600.0, 700, 800, 900].map { BoxSample(viewport: $0, width: layout($0)) }
        #expect(fitter.refinements(of: measured).contains(750))
        var rounds = 0
        while case let next = fitter.refinements(of: measured), !next.isEmpty {
            measured += next.map { BoxSample(viewport: $0, width: layout($0)) }
            rounds += 1
        }
        #expect(rounds <= 8)
        #expect(measured.contains { $0.viewport == 767 } && measured.contains { $0.viewport == 768 })
        let straight = stride(from: 320.0, through: 2560, by: 40).map { BoxSample(viewport: $0, width: $0 / 3) }
        #expect(fitter.refinements(of: straight).isEmpty, "one line needs no more measuring")
    }

    @Test("layouts of every common shape, sampled coarsely then bisected, give their box at every integer viewport",
          arguments: [16, 40, 80, 160])
    func shapes(step: Int) throws {
        let layouts: [(String, (Double) -> Double)] = [
            ("bootstrap third", bootstrapThird),
            ("capped fluid", { min($0 - 32, 1200) }),
            ("narrow middle piece", { $0 < 600 ? $0 : ($0 < 630 ? 500 : $0 / 2) }),
            ("clamp", { min(max($0 * 0.4, 280), 720) }),
            ("jump down", { $0 < 1024 ? $0 - 20 : 250 }),
        ]
        let fitter = SizesFitter()
        for (name, layout) in layouts {
            var measured = samples(stride(from: 320, through: 2560, by: step), layout)
            var rounds = 0
            while case let next = fitter.refinements(of: measured), !next.isEmpty, rounds < 30 {
                measured += next.map { BoxSample(viewport: $0, width: layout($0)) }
                rounds += 1
            }
            let value = try #require(sizes(fitter.fit(measured)), "\(name)")
            for viewport in 320...2560 {
                let width = try #require(value.width(atViewport: Double(viewport)))
                #expect(abs(width - layout(Double(viewport))) <= 0.5, "\(name) at \(viewport): \(value)")
            }
        }
    }

    @Test("a layout that is no line is refused, naming the sample")
    func curve() {
        let fit = SizesFitter().fit(samples(stride(from: 320, through: 2560, by: 10)) { ($0 * $0).squareRoot() * 3 + ($0 / 100) * ($0 / 100) })
        guard case .refused(let refusal) = fit else { Issue.record("fitted a curve: \(fit)"); return }
        #expect(refusal.description.contains("breakpoints"), "\(refusal)")
    }

    @Test("two widths at one viewport are refused as a layout that moves")
    func unstable() {
        let fit = SizesFitter().fit([BoxSample(viewport: 500, width: 300), BoxSample(viewport: 500, width: 310)])
        #expect(fit == .refused(.unstable(viewport: 500, widths: [300, 310])))
        #expect(SizesFitter().fit([]) == .refused(.noSamples))
    }

    @Test("sub-pixel boxes (layout's 1/64 px) stay within the tolerance once written")
    func subpixel() throws {
        let box: (Double) -> Double = { (($0 * 0.3333 - 12.7) * 64).rounded(.down) / 64 }
        let measured = samples(stride(from: 320, through: 2560, by: 16), box)
        let value = try #require(sizes(SizesFitter().fit(measured)))
        for sample in measured {
            #expect(abs(try #require(value.width(atViewport: sample.viewport)) - sample.width) <= SizesFitter.tolerance)
        }
    }
}

@Suite("sizes attributes read and evaluated")
struct SizesValueTests {
    @Test("entries are tried in order, the last one is the default", arguments: [
        ("(max-width: 600px) 100vw, 50vw", 500.0, 500.0),
        ("(max-width: 600px) 100vw, 50vw", 800.0, 400.0),
        ("(min-width: 992px) 33vw, 100vw", 1280.0, 422.4),
        ("(min-width: 992px) 33vw, 100vw", 500.0, 500.0),
        ("calc(50vw - 24px)", 1000.0, 476.0),
        ("calc(-12px + 25vw)", 1000.0, 238.0),
        ("auto, 400px", 1000.0, 400.0),
        ("(min-width: 500px) and (max-width: 900px) 300px, 10px", 700.0, 300.0),
    ])
    func evaluate(text: String, viewport: Double, width: Double) throws {
        let value = try #require(SizesValue(parsing: text))
        #expect(abs(try #require(value.width(atViewport: viewport)) - width) < 1e-9)
    }

    @Test("forms dppx does not know are not read", arguments: ["50em", "(orientation: portrait) 50vw, 100vw", "calc(50vw - 2em)", "", "min(100vw, 600px)"])
    func unknown(text: String) {
        #expect(SizesValue(parsing: text) == nil)
    }

    @Test("lengths are written in their shortest form")
    func written() {
        #expect(SizesLength(pixels: 426.666666).description == "426.67px")
        #expect(SizesLength(perViewport: 100).description == "100vw")
        #expect(SizesLength(perViewport: 33.333333, pixels: -24).description == "calc(33.3333vw - 24px)")
        #expect(SizesLength(perViewport: 50, pixels: 12.5).description == "calc(50vw + 12.5px)")
    }
}
