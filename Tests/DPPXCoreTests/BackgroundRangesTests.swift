import DPPXCore
import Testing

@Suite("Viewport ranges of a measured CSS background")
struct BackgroundRangesTests {
    static func samples(_ viewports: StrideThrough<Double>, _ width: (Double) -> Double) -> [BoxSample] {
        viewports.map { BoxSample(viewport: $0, width: width($0)) }
    }

    @Test("a layer painted 400 px wide everywhere is one range over every width: its 1x, 1.5x, 2x and 3x files at exact densities")
    func fixedWidth() {
        let layer = BackgroundRanges.Layer(samples: Self.samples(stride(from: 320, through: 1280, by: 160)) { _ in 400 },
                                           fileWidths: [400, 600, 800, 1200, 2400])
        let ranges = BackgroundRanges(layers: [layer]).ranges
        #expect(ranges.count == 1)
        #expect(ranges.first?.mediaQuery == "all")
        #expect(ranges.first?.candidates == [[.init(width: 400, density: "1"), .init(width: 600, density: "1.5"), .init(width: 800, density: "2"),
                                              .init(width: 1200, density: "3")]])
    }

    @Test("a full-width layer changes files where a need passes a file: the range ends just under the next one's first viewport")
    func fullWidth() throws {
        let layer = BackgroundRanges.Layer(samples: Self.samples(stride(from: 320, through: 1280, by: 1)) { $0 }, fileWidths: [480, 960, 1440, 1920, 2400])
        let ranges = BackgroundRanges(layers: [layer]).ranges
        // 1x passes a file at 480 and 960, 1.5x at 320, 640 and 960, 2x at 480, 720 and 960. The
        // range of 320 alone (1.5x taking 480 there) is one pixel wide: it joins the next.
        #expect(ranges.map(\.mediaQuery) == [
            "(max-width: 480.98px)", "(min-width: 481px) and (max-width: 640.98px)",
            "(min-width: 641px) and (max-width: 720.98px)", "(min-width: 721px) and (max-width: 960.98px)", "(min-width: 961px)",
        ])
        // Up to 480: 1x takes 480, 1.5x and 2x 960, 3x 1440; written against the range's widest, 480 px.
        #expect(ranges[0].candidates == [[.init(width: 480, density: "1"), .init(width: 960, density: "2"), .init(width: 1440, density: "3")]])
        // 961-1280: 1x 1440, 1.5x 1920, 2x the master, the widest file there is.
        try #require(ranges.count == 5)
        #expect(ranges[4].candidates == [[.init(width: 1440, density: "1.125"), .init(width: 1920, density: "1.5"), .init(width: 2400, density: "1.875")]])
    }

    @Test("at every measured viewport each density gets a file at least as wide as it needs and at most one file wider, the master above the widest")
    func everyNeedServed() throws {
        let files = [300, 640, 1100, 1700, 2400]
        let samples = Self.samples(stride(from: 320, through: 2560, by: 7)) { $0 < 900 ? $0 - 24 : min(1140, $0 * 0.6) }
        let ranges = BackgroundRanges(layers: [.init(samples: samples, fileWidths: files)]).ranges
        for sample in samples {
            let range = try #require(ranges.first { ($0.minimumViewport ?? 0) <= sample.viewport && sample.viewport <= ($0.maximumViewport ?? .infinity) })
            let candidates = range.candidates[0]
            for density in [1.0, 1.5, 2, 3] {
                let need = sample.width * density
                let wanted = files.first { Double($0) >= need } ?? 2400
                // The browser at this density takes the lowest descriptor at least the density.
                let taken = candidates.first { Double($0.density)! >= density } ?? candidates.last!
                #expect(taken.width >= wanted, "\(density)x at \(sample) is served: \(candidates)")
                // A range narrower than `narrowestRange` joined its neighbour, whose files serve
                // it: one file wider may be taken there.
                #expect(taken.width <= (files.first { $0 > wanted } ?? 2400), "\(density)x at \(sample): \(candidates)")
            }
        }
    }

    @Test("a range of one refined sample joins its neighbour on the same side of the layout's breakpoint: no block for a pixel of windows")
    func narrowRangeMerged() throws {
        // 100vw - 24px up to 767, a third from 768; 1x passes the 742 px file at 767 only, a
        // refined sample one pixel before the breakpoint.
        let viewports: [Double] = Array(stride(from: 320, through: 760, by: 40)) + [764, 766, 767, 768, 800, 1200]
        let samples = viewports.map { BoxSample(viewport: $0, width: $0 < 768 ? $0 - 24 : ($0 - 24) / 3) }
        let ranges = BackgroundRanges(layers: [.init(samples: samples, fileWidths: [400, 742, 1200, 1600])]).ranges
        #expect(ranges.allSatisfy { range in
            guard let low = range.minimumViewport, let high = range.maximumViewport else { return true }
            return high - low >= BackgroundRanges.narrowestRange - 1
        }, "\(ranges.map(\.mediaQuery))")
        // The range of 767 joined the full-width side, served from its widest painted width
        // (743 px at 767: 1x takes 1200 there); the third-width side from 768 keeps its small files.
        let wide = try #require(ranges.first { $0.maximumViewport == 767.98 })
        #expect(wide.candidates[0].map(\.width) == [1200, 1600], "\(ranges.map(\.mediaQuery)) \(wide.candidates)")
        let third = try #require(ranges.first { $0.minimumViewport == 768 })
        #expect(third.candidates[0].map(\.width).first == 400, "\(third.candidates)")
    }

    @Test("descriptors give the range's widest painted width back within 1/200 px")
    func descriptorsExact() throws {
        let layer = BackgroundRanges.Layer(samples: [BoxSample(viewport: 500, width: 959.7)], fileWidths: [1000, 1500, 2000])
        let candidates = try #require(BackgroundRanges(layers: [layer]).ranges.first?.candidates.first)
        #expect(candidates.map(\.width) == [1000, 1500, 2000])
        for candidate in candidates {
            #expect(abs(Double(candidate.width) / Double(candidate.density)! - 959.7) < 0.005, "\(candidate)")
        }
    }

    @Test("two images in one rule: a range wherever either changes files; an image not measured in a range has no candidates")
    func twoLayers() {
        let photo = BackgroundRanges.Layer(samples: Self.samples(stride(from: 400, through: 1200, by: 100)) { $0 }, fileWidths: [800, 1600, 2400])
        let texture = BackgroundRanges.Layer(samples: Self.samples(stride(from: 700, through: 1200, by: 100)) { _ in 200 }, fileWidths: [200, 400])
        let ranges = BackgroundRanges(layers: [photo, texture]).ranges
        // The photo's needs pass a file just after 400 (2x passes 800), at 533.3 (1.5x passes
        // 800, 3x 1600), 800 (1x passes 800, 2x 1600) and 1066.7 (1.5x passes 1600): each range
        // starts at the first whole pixel past the place. The texture appears at 700.
        #expect(ranges.map(\.mediaQuery) == ["(max-width: 533.98px)", "(min-width: 534px) and (max-width: 699.98px)",
                                             "(min-width: 700px) and (max-width: 800.98px)", "(min-width: 801px) and (max-width: 1066.98px)",
                                             "(min-width: 1067px)"])
        // The first range, from 401 to 533 (400 alone is narrower than a range): 1x and 1.5x take
        // 800, 2x and 3x 1600, against the widest whole window, 533 px.
        #expect(ranges[0].candidates == [[.init(width: 800, density: "1.50094"), .init(width: 1600, density: "3.0019")], []])
        #expect(ranges[1].candidates[1].isEmpty, "the texture is not painted under 700")
        #expect(ranges[2].candidates == [[.init(width: 800, density: "1"), .init(width: 1600, density: "2"), .init(width: 2400, density: "3")],
                                         [.init(width: 200, density: "1"), .init(width: 400, density: "2")]], "1.5x takes the 2x file")
        #expect(ranges[4].candidates[0] == [.init(width: 1600, density: "1.33333"), .init(width: 2400, density: "2")])
    }

    @Test("every window of whole pixels between samples, at 1x, 1.5x, 2x and 3x, takes a file at least as wide as the layer is painted there, and at most one file wider; a fraction of a pixel more needs at most a pixel more")
    func everyWindowServed() throws {
        let files = [300, 640, 1100, 1700, 2400]
        // Fluid with a breakpoint at 900 (refined: samples 0.02 px apart there), sampled every 40 px.
        let viewports = Array(stride(from: 320.0, through: 880, by: 40)) + [899.98, 900] + Array(stride(from: 940.0, through: 2560, by: 40))
        let width = { (viewport: Double) in viewport < 900 ? viewport - 24 : min(1140, viewport * 0.6) }
        let samples = viewports.map { BoxSample(viewport: $0, width: width($0)) }
        let ranges = BackgroundRanges(layers: [.init(samples: samples, fileWidths: files)]).ranges
        for viewport in stride(from: 320.0, through: 2560, by: 0.5) where !(899.98 < viewport && viewport < 900) {
            let whole = viewport.rounded(.down) == viewport
            let range = try #require(ranges.first { ($0.minimumViewport ?? 0) <= viewport && viewport <= ($0.maximumViewport ?? .infinity) },
                                     "\(viewport) is in a range: \(ranges.map(\.mediaQuery))")
            let candidates = range.candidates[0]
            for density in [1.0, 1.5, 2, 3] {
                // A zoomed window half a pixel wider than a whole one is served as the whole one.
                let need = width(whole ? viewport : viewport.rounded(.down)) * density
                let wanted = files.first { Double($0) >= need - 0.01 } ?? 2400
                // The browser at this density takes the lowest descriptor at least the density.
                let taken = candidates.first { Double($0.density)! >= density } ?? candidates.last!
                #expect(taken.width >= wanted, "\(density)x at \(viewport) px is served: \(range.mediaQuery) \(candidates)")
                let next = files.first { $0 > wanted } ?? 2400
                #expect(taken.width <= next, "\(density)x at \(viewport) px: at most one file wider: \(range.mediaQuery) \(candidates)")
            }
        }
    }

    @Test("several elements of one rule: the widest at each viewport, interpolated between samples, nothing outside an element's span")
    func widest() {
        let wide = [BoxSample(viewport: 400, width: 300), BoxSample(viewport: 800, width: 700)]
        let shownFrom600 = [BoxSample(viewport: 600, width: 600), BoxSample(viewport: 1000, width: 600)]
        #expect(BackgroundRanges.widest(of: [wide, shownFrom600]) == [
            BoxSample(viewport: 400, width: 300), BoxSample(viewport: 600, width: 600), BoxSample(viewport: 800, width: 700),
            BoxSample(viewport: 1000, width: 600),
        ])
    }

    @Test("a background-size: auto layer keeps the size it is painted at: its files are written against the image's natural width, not the widest a cover element of the same rule paints")
    func autoLayerKeepsItsSize() throws {
        // One rule paints a 1600x800 master: an `auto` band (1600 px wide everywhere) and a
        // `cover` block whose painted width is twice its height, 2560 px at 1280 px.
        let viewports = stride(from: 320.0, through: 2560, by: 40)
        let band = Self.samples(viewports) { _ in 1600 }
        let cover = Self.samples(viewports) { $0 * 2 }
        let files = [800, 1200, 1600]
        let layer = BackgroundRanges.Layer(samples: BackgroundRanges.widest(of: [band, cover]), fileWidths: files,
                                           natural: .init(width: 1600, samples: band))
        let ranges = BackgroundRanges(layers: [layer]).ranges
        try #require(!ranges.isEmpty)
        for range in ranges {
            // The band is 1600 px at every width: only the master serves it, at 1x, so its
            // natural size stays 1600 px (written against 2560, 0.625x, it was 2560 px).
            #expect(range.candidates == [[.init(width: 1600, density: "1")]], "\(range.mediaQuery)")
        }
        // Without the band, the cover block's files are written against its painted width.
        let coverOnly = BackgroundRanges(layers: [.init(samples: cover, fileWidths: files)]).ranges
        #expect(coverOnly.last?.candidates == [[.init(width: 1600, density: "0.3125")]], "\(coverOnly)")
    }

    @Test("a layer auto only at some widths: written against its natural width there, against its painted width elsewhere, the range changing where the layer's size does")
    func autoOnlyWhereItIsAuto() throws {
        // A 1200x600 master: cover over a 300 px high box below 840 px (painted 600 px, its
        // height's twice), auto (1200 px) from 840 px on, the breakpoint pinned to a pixel;
        // files 600, 900, 1200.
        let cover = Self.samples(stride(from: 320, through: 800, by: 40)) { _ in 600 } + [BoxSample(viewport: 839, width: 600)]
        let band = Self.samples(stride(from: 840, through: 1600, by: 40)) { _ in 1200 }
        let layer = BackgroundRanges.Layer(samples: cover + band, fileWidths: [600, 900, 1200], natural: .init(width: 1200, samples: band))
        let ranges = BackgroundRanges(layers: [layer]).ranges
        try #require(ranges.count == 2, "\(ranges)")
        #expect(ranges[0].maximumViewport == 839.98)
        #expect(ranges[0].candidates == [[.init(width: 600, density: "1"), .init(width: 900, density: "1.5"), .init(width: 1200, density: "2")]])
        #expect(ranges[1].minimumViewport == 840)
        #expect(ranges[1].candidates == [[.init(width: 1200, density: "1")]])
    }

    @Test("background-size auto and auto auto paint at the natural size; a length, a percentage, one auto side, cover and contain do not")
    func naturalSizes() {
        #expect(BackgroundSize(computed: "auto")?.isNatural == true)
        #expect(BackgroundSize(computed: "auto auto")?.isNatural == true)
        for other in ["cover", "contain", "100px", "50% auto", "auto 100%", "120px 80px"] {
            #expect(BackgroundSize(computed: other)?.isNatural == false, "\(other)")
        }
    }

    @Test("nothing measured: no ranges")
    func empty() {
        #expect(BackgroundRanges(layers: []).ranges.isEmpty)
        #expect(BackgroundRanges(layers: [.init(samples: [], fileWidths: [100])]).ranges.isEmpty)
    }
}
