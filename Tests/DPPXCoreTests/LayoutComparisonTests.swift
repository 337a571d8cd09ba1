import DPPXCore
import Testing

@Suite("comparing a rewritten page's layout with the untouched one")
struct LayoutComparisonTests {
    static func page(images: [[Double]], heights: [Double] = [900, 900], painted: Double = 1280, loadedElements: Int? = 12) -> LayoutFile.Page {
        LayoutFile.Page(
            hash: "", dependencies: [], viewportHeight: 800, scrollbars: "hidden",
            images: images.enumerated().map { index, widths in
                LayoutFile.Image(offset: 100 * index, src: "img/\(index).jpg",
                                 samples: zip([500.0, 1280], widths).map { LayoutFile.Sample(viewport: $0, width: $1, height: $1 / 2) })
            },
            backgrounds: [LayoutFile.Background(element: "html > body:nth-child(2)", layer: 1, url: "/img/hero.jpg", size: "cover",
                                                samples: [LayoutFile.BackgroundSample(viewport: 1280, areaWidth: 1280, areaHeight: 560,
                                                                                      paintedWidth: painted, paintedHeight: painted / 2)])],
            heights: zip([500.0, 1280], heights).map { LayoutFile.PageHeight(viewport: $0, height: $1) }, loadedElements: loadedElements)
    }

    @Test("within half a pixel everywhere is the same layout")
    func same() {
        let before = Self.page(images: [[476, 402.67], [200, 200]])
        let after = Self.page(images: [[476.3, 402.5], [200, 200.4]], heights: [900.8, 900])
        #expect(LayoutComparison.difference(before: before, after: after, lineOfOffset: { _ in 1 }) == nil)
    }

    @Test("what two loads of the untouched page disagree on is its own jitter: set aside, the rest still compared")
    func jitterSetAside() throws {
        // The second image still loading in one untouched load (0 px high there), and the page
        // 16 px higher in one load than in the other.
        let first = Self.page(images: [[476, 402.67], [200, 200]])
        var second = Self.page(images: [[476, 402.67], [200, 200]], heights: [916, 900])
        second.images[1].samples[1] = LayoutFile.Sample(viewport: 1280, width: 200, height: 0)
        let jitter = LayoutComparison.jitter(between: first, and: second)
        #expect(jitter == LayoutComparison.Jitter(images: [1], page: true))
        // The rewritten page shows the same: no difference once the jitter is set aside.
        #expect(LayoutComparison.difference(before: first, after: second, lineOfOffset: { _ in 1 }) != nil)
        #expect(LayoutComparison.difference(before: first, after: second, lineOfOffset: { _ in 1 }, setAside: jitter) == nil)
        // A box the untouched loads agree on is still compared.
        var moved = second
        moved.images[0].samples[1] = LayoutFile.Sample(viewport: 1280, width: 380, height: 190)
        let what = try #require(LayoutComparison.difference(before: first, after: moved, lineOfOffset: { _ in 3 }, setAside: jitter))
        #expect(what.contains("<img src=\"img/0.jpg\"> (line 3)"), "\(what)")
        #expect(LayoutComparison.jitter(between: first, and: first) == .none)
    }

    @Test("a box that moved is named with its line, the viewport and both sizes")
    func movedBox() throws {
        let before = Self.page(images: [[476, 402.67], [200, 200]])
        let after = Self.page(images: [[476, 398.4], [200, 200]])
        let moved = try #require(LayoutComparison.difference(before: before, after: after, lineOfOffset: { $0 == 0 ? 7 : 9 }))
        #expect(moved.contains("<img src=\"img/0.jpg\"> (line 7)"))
        #expect(moved.contains("1280 px viewport"))
        #expect(moved.contains("drawn 398.4x199.2 px"))
        #expect(moved.contains(", 402.67x"))
    }

    @Test("a box of the same size somewhere else is displaced; the boxes before it that changed size allow as much drift")
    func displaced() {
        func page(_ tops: [Double], left: Double = 0, firstWidth: Double = 476) -> LayoutFile.Page {
            var page = Self.page(images: [[firstWidth, firstWidth], [476, 402.67]])
            for index in page.images.indices {
                page.images[index].samples = page.images[index].samples.map {
                    LayoutFile.Sample(viewport: $0.viewport, width: $0.width, height: $0.height, left: left, top: tops[index])
                }
            }
            return page
        }
        // The first box 0.4 px wider (0.2 px taller): the second may sit 0.5 + 0.6 px off.
        #expect(LayoutComparison.movedImages(before: page([0, 300]), after: page([0.4, 300.9], firstWidth: 476.4)).isEmpty)
        #expect(LayoutComparison.movedImages(before: page([0, 300]), after: page([0, 300.9])).map(\.index) == [1],
                "no box before it changed size: 0.9 px is a move")
        let moved = LayoutComparison.movedImages(before: page([0, 300]), after: page([0, 300], left: 40))
        #expect(moved.map(\.index) == [0, 1] && moved.allSatisfy { $0.move == .displaced })
        #expect(moved.first?.drawn == "drawn at 40,0 at a 500 px viewport, at 0,0 before")
    }

    @Test("a background painted at another size, an image gone or a page grown more than its boxes did is a different layout")
    func heightsBackgroundsCount() {
        let before = Self.page(images: [[476, 402.67]])
        #expect(LayoutComparison.difference(before: before, after: Self.page(images: [[476, 402.67]], heights: [1217, 900]), lineOfOffset: { _ in 1 })
                == "the page was 1217 px high at a 500 px viewport, 900 px before", "317 px of blank page")
        #expect(LayoutComparison.difference(before: before, after: Self.page(images: [[476.4, 402.67]], heights: [900.7, 900]), lineOfOffset: { _ in 1 }) == nil,
                "as high as its box grew (0.4 px wide, 0.2 px high) and half a pixel")
        #expect(LayoutComparison.difference(before: before, after: Self.page(images: [[476, 402.67]], painted: 1300), lineOfOffset: { _ in 1 })?
            .contains("the background /img/hero.jpg") == true)
        #expect(LayoutComparison.difference(before: Self.page(images: [[476, 402.67], [1, 1]]), after: before, lineOfOffset: { _ in 1 })?
            .contains("drew 1 <img> where it drew 2") == true)
    }

    @Test("a layer measured as two entries (cover at 1280 px, auto at 1600 px) is compared at every viewport of each, in either order")
    func backgroundOfTwoSizes() {
        func page(autoPainted: Double, coverPainted: Double = 1280) -> LayoutFile.Page {
            var page = Self.page(images: [[476, 402.67]], painted: coverPainted)
            let cover = page.backgrounds[0]
            var band = cover
            band.size = "auto"
            band.samples = [LayoutFile.BackgroundSample(viewport: 1600, areaWidth: 1600, areaHeight: 560, paintedWidth: autoPainted, paintedHeight: autoPainted / 2)]
            page.backgrounds = [band, cover]
            return page
        }
        #expect(LayoutComparison.difference(before: page(autoPainted: 1600), after: page(autoPainted: 1600), lineOfOffset: { _ in 1 }) == nil)
        #expect(LayoutComparison.difference(before: page(autoPainted: 1600), after: page(autoPainted: 2560), lineOfOffset: { _ in 1 })?
            .contains("painted 2560x1280 px in a 1600x560 px box at a 1600 px viewport") == true)
        #expect(LayoutComparison.difference(before: page(autoPainted: 1600), after: page(autoPainted: 1600, coverPainted: 1300), lineOfOffset: { _ in 1 })?
            .contains("painted 1300x650 px") == true, "the second entry of the layer too")
        var reordered = page(autoPainted: 2560)
        reordered.backgrounds.reverse()
        #expect(LayoutComparison.difference(before: page(autoPainted: 1600), after: reordered, lineOfOffset: { _ in 1 }) != nil)
    }

    @Test("a layer painted on one side only, or from another master, is a different layout; a file an image-set() chose may be painted a pixel of it off")
    func backgroundMissingOrOfAnotherImage() {
        let before = Self.page(images: [[476, 402.67]])
        var gone = before
        gone.backgrounds = []
        #expect(LayoutComparison.difference(before: before, after: gone, lineOfOffset: { _ in 1 })
                == "the background /img/hero.jpg of html > body:nth-child(2) was not painted at a 1280 px viewport, 1280x640 px before")
        #expect(LayoutComparison.difference(before: gone, after: before, lineOfOffset: { _ in 1 })
                == "the background /img/hero.jpg of html > body:nth-child(2) was painted 1280x640 px at a 1280 px viewport, where it was not before")
        var other = before
        other.backgrounds[0].url = "/img/band.jpg"
        #expect(LayoutComparison.difference(before: before, after: other, lineOfOffset: { _ in 1 })
                == "the background of html > body:nth-child(2) was painted from /img/band.jpg at a 1280 px viewport, from /img/hero.jpg before")
        // A 1280 px file painted at 1280x641.2: its height rounded to whole pixels.
        var rounded = before
        rounded.backgrounds[0].samples[0].paintedHeight = 641.2
        #expect(LayoutComparison.difference(before: before, after: rounded, lineOfOffset: { _ in 1 }) != nil)
        rounded.backgrounds[0].samples[0].grain = 1
        #expect(LayoutComparison.difference(before: before, after: rounded, lineOfOffset: { _ in 1 }) == nil)
    }

    @Test("heights are compared only between loads that held as many elements: a script's content before the load event comes or not from load to load")
    func heightsOfOtherContent() {
        let before = Self.page(images: [[476, 402.67]], loadedElements: 12)
        #expect(LayoutComparison.difference(before: before, after: Self.page(images: [[476, 402.67]], heights: [916, 900], loadedElements: 13),
                                            lineOfOffset: { _ in 1 }) == nil, "a report image appended when the page's images were in")
        #expect(LayoutComparison.difference(before: Self.page(images: [[476, 402.67]], loadedElements: nil),
                                            after: Self.page(images: [[476, 402.67]], heights: [916, 900], loadedElements: nil),
                                            lineOfOffset: { _ in 1 }) == nil, "a layout recorded before the count was")
        #expect(LayoutComparison.difference(before: before, after: Self.page(images: [[476, 402.67]], heights: [916, 900], loadedElements: 12),
                                            lineOfOffset: { _ in 1 }) != nil)
    }
}
