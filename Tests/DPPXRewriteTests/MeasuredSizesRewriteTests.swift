import DPPXCore
@testable import DPPXRewrite
import Testing

/// A measured layout (`RewriteOptions.layout`) gives each fluid `<img>` occurrence the `sizes`
/// of its own boxes; a page's own `sizes` and a rule's win; the `sizes` dppx wrote are its own
/// to replace; measuring turns off what an earlier rewrite wrote.
@Suite("Rewriting from measured boxes")
struct MeasuredSizesRewriteTests {
    static let page = """
    <div class="grid"><img src="img/photo.jpg" alt="a"></div>
    <div class="modal"><img src="img/photo.jpg" alt="b"></div>
    """

    /// Offsets of the two `<img>` tags above.
    static var offsets: [Int] { ImageTagOffsets.of(Array(page.utf8)) }

    /// A layout of `page`: the first occurrence a third of the viewport less a gutter above
    /// 768 px and the viewport less 24 px below, the second `second`.
    static func layout(second: [Double]? = nil, sizesWritten: [String] = []) -> LayoutFile {
        let viewports = stride(from: 320.0, through: 1600, by: 40).map { $0 }
        let grid = viewports.map { viewport in
            LayoutFile.Sample(viewport: viewport, width: viewport < 768 ? viewport - 24 : viewport / 3 - 24, height: 100)
        }
        let other = zip(viewports, second ?? viewports.map { _ in 600 }).map { LayoutFile.Sample(viewport: $0, width: $1, height: 400) }
        let measured = LayoutFile.Page(hash: "h", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden",
                                       images: [LayoutFile.Image(offset: offsets[0], src: "img/photo.jpg", samples: grid),
                                                LayoutFile.Image(offset: offsets[1], src: "img/photo.jpg", samples: other)],
                                       backgrounds: [], sizesWritten: sizesWritten)
        return LayoutFile(pages: ["index.html": measured])
    }

    static func sizes(in html: String) -> [String] {
        html.components(separatedBy: "sizes=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test("each occurrence of one file gets the sizes of its own boxes, checked within 0.5 px at every sample")
    func perOccurrence() throws {
        let result = RewriteFixtures.rewriter(RewriteOptions(layout: Self.layout())).rewriteHTML(Array(Self.page.utf8), at: "index.html")
        let html = String(decoding: result.bytes, as: UTF8.self)
        let sizes = Self.sizes(in: html)
        #expect(sizes.count == 2)
        #expect(sizes.last == "600px")
        let grid = try #require(SizesValue(parsing: sizes[0]))
        for viewport in stride(from: 320.0, through: 1600, by: 40) {
            let box = viewport < 768 ? viewport - 24 : viewport / 3 - 24
            #expect(abs((grid.width(atViewport: viewport) ?? -1) - box) <= 0.5, "at \(viewport): \(sizes[0])")
        }
        #expect(html.contains("srcset=\"img/photo-"))
        #expect(result.imagesMadeExact == 2)
        #expect(result.sizesWritten == Array(Set(sizes)).sorted())
        #expect(result.findings.isEmpty, "\(result.findings)")
    }

    @Test("an occurrence whose content is painted wider than its box (object-fit: cover of a 3:2 photo in a square card) gets the sizes of the painted width")
    func paintedWidth() throws {
        var layout = Self.layout()
        let cards = stride(from: 320.0, through: 1600, by: 40).map { viewport in
            let box = viewport < 768 ? viewport - 24 : viewport / 3 - 24
            return LayoutFile.Sample(viewport: viewport, width: box, height: box, painted: box * 1.5)
        }
        layout.pages["index.html"]!.images[0].samples = cards
        let result = RewriteFixtures.rewriter(RewriteOptions(layout: layout)).rewriteHTML(Array(Self.page.utf8), at: "index.html")
        let sizes = Self.sizes(in: String(decoding: result.bytes, as: UTF8.self))
        let grid = try #require(sizes.first.flatMap(SizesValue.init(parsing:)), "\(sizes)")
        for card in cards {
            #expect(abs((grid.width(atViewport: card.viewport) ?? -1) - card.width * 1.5) <= 0.5, "at \(card.viewport): \(sizes[0])")
        }
    }

    @Test("a second rewrite from the same layout changes nothing, and a changed layout replaces only the sizes dppx wrote")
    func ownSizesFollowTheLayout() throws {
        let first = RewriteFixtures.rewriter(RewriteOptions(layout: Self.layout())).rewriteHTML(Array(Self.page.utf8), at: "index.html")
        // The layout as the next run reads it: offsets of the rewritten page, the sizes written.
        let offsets = ImageTagOffsets.of(first.bytes)
        var layout = Self.layout(sizesWritten: first.sizesWritten)
        for index in layout.pages["index.html"]!.images.indices { layout.pages["index.html"]!.images[index].offset = offsets[index] }
        let again = RewriteFixtures.rewriter(RewriteOptions(layout: layout)).rewriteHTML(first.bytes, at: "index.html")
        #expect(again.bytes == first.bytes)
        // The modal's box became 500 px: dppx's own 600px is replaced.
        for index in layout.pages["index.html"]!.images[1].samples.indices { layout.pages["index.html"]!.images[1].samples[index].width = 500 }
        let changed = RewriteFixtures.rewriter(RewriteOptions(layout: layout)).rewriteHTML(first.bytes, at: "index.html")
        #expect(Self.sizes(in: String(decoding: changed.bytes, as: UTF8.self)).last == "500px")
    }

    @Test("a sizes dppx wrote that still gives every box re-measured within half a pixel is kept: measuring jitter does not move its breakpoints")
    func writtenSizesThatStillHoldAreKept() throws {
        let first = RewriteFixtures.rewriter(RewriteOptions(layout: Self.layout())).rewriteHTML(Array(Self.page.utf8), at: "index.html")
        let offsets = ImageTagOffsets.of(first.bytes)
        var layout = Self.layout(sizesWritten: first.sizesWritten)
        for index in layout.pages["index.html"]!.images.indices { layout.pages["index.html"]!.images[index].offset = offsets[index] }
        // Re-measured after an unrelated edit, the grid's boxes 0.3 px wider: a fresh fit would
        // write calc(100vw - 23.7px); the sizes written still gives every box within 0.5 px.
        let grid = layout.pages["index.html"]!.images[0].samples.map { sample in
            LayoutFile.Sample(viewport: sample.viewport, width: sample.width + 0.3, height: sample.height)
        }
        layout.pages["index.html"]!.images[0].samples = grid
        if case .sizes(let fresh) = SizesFitter().fit(layout.pages["index.html"]!.images[0].boxSamples) {
            #expect(!Self.sizes(in: String(decoding: first.bytes, as: UTF8.self)).contains(fresh.description), "a fresh fit differs")
        }
        let again = RewriteFixtures.rewriter(RewriteOptions(layout: layout)).rewriteHTML(first.bytes, at: "index.html")
        #expect(again.bytes == first.bytes, "\(Self.sizes(in: String(decoding: again.bytes, as: UTF8.self)))")
        // Boxes that moved by more than the tolerance get a new fit.
        layout.pages["index.html"]!.images[0].samples = grid.map { LayoutFile.Sample(viewport: $0.viewport, width: $0.width + 20, height: $0.height) }
        let moved = RewriteFixtures.rewriter(RewriteOptions(layout: layout)).rewriteHTML(first.bytes, at: "index.html")
        #expect(Self.sizes(in: String(decoding: moved.bytes, as: UTF8.self)).first != Self.sizes(in: String(decoding: first.bytes, as: UTF8.self)).first)
    }

    @Test("a page's own sizes and a rule's sizes win over the measurement")
    func statedSizesWin() {
        let own = Self.page.replacingOccurrences(of: "alt=\"b\"", with: "alt=\"b\" sizes=\"50vw\"")
        let result = RewriteFixtures.html(own, RewriteOptions(layout: Self.layout()))
        #expect(Self.sizes(in: result.text).last == "50vw")
        var rule = ImageRule(match: [PathGlob("photo.jpg")])
        rule.sizes = "33vw"
        let ruled = RewriteFixtures.html(Self.page, RewriteOptions(rules: [rule], layout: Self.layout()))
        #expect(Self.sizes(in: ruled.text) == ["33vw", "33vw"])
    }

    @Test("an occurrence hidden when measured, or not drawn at all, is left without srcset and said why")
    func hiddenOrMissing() {
        let hidden = Self.layout(second: Array(repeating: 0, count: 33))
        let result = RewriteFixtures.html(Self.page, RewriteOptions(layout: hidden))
        #expect(Self.sizes(in: result.text).count == 1)
        #expect(result.findings.contains { $0.contains("index.html:2") && $0.contains("not displayed at a 320 px viewport") })
        var missing = Self.layout()
        missing.pages["index.html"]!.images.removeLast()
        let notDrawn = RewriteFixtures.html(Self.page, RewriteOptions(layout: missing))
        #expect(notDrawn.findings.contains { $0.contains("was not drawn when its page was measured") })
    }

    @Test("an occurrence whose box followed its natural width when checked is left without srcset, and said why")
    func unsized() {
        var layout = Self.layout()
        layout.pages["index.html"]!.images[0].unsized = "drawn 168.39x112.11 px at a 800 px viewport, 228.44x152.2 px before"
        let result = RewriteFixtures.html(Self.page, RewriteOptions(layout: layout))
        #expect(Self.sizes(in: result.text) == ["600px"])
        #expect(result.findings.contains { $0.hasPrefix("index.html:1:") && $0.contains("depends on its natural width") && $0.contains("drawn 168.39x112.11 px") && $0.hasSuffix("left without srcset") })
    }

    @Test("with --picture, an occurrence the check found changed by its wrapper keeps its srcset, without <picture>, and is named with why; the others are wrapped and listed")
    func unwrapped() throws {
        let page = "<div class=\"card\"><img src=\"img/hero.jpg\" alt=\"a\"></div>\n<div><img src=\"img/hero.jpg\" alt=\"b\"></div>"
        let offsets = ImageTagOffsets.of(Array(page.utf8))
        let samples = [LayoutFile.Sample(viewport: 320, width: 400, height: 300)]
        var measured = LayoutFile.Page(hash: "h", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden",
                                       images: offsets.map { LayoutFile.Image(offset: $0, src: "img/hero.jpg", samples: samples) }, backgrounds: [])
        let reason = "its computed `width` changed at a 320 px viewport (`.card > img` no longer matches)"
        measured.images[0].unwrapped = reason
        let options = RewriteOptions(picture: true, layout: LayoutFile(pages: ["index.html": measured]))
        let result = RewriteFixtures.rewriter(options).rewriteHTML(Array(page.utf8), at: "index.html")
        let html = String(decoding: result.bytes, as: UTF8.self)
        let lines = html.split(separator: "\n")
        #expect(lines[0].hasPrefix("<div class=\"card\"><img src=\"img/hero.jpg\" alt=\"a\" srcset=\"img/hero.jpg 1x, img/hero@2x.jpg 2x\">"), "\(html)")
        #expect(lines[1].hasPrefix("<div><picture><source type=\"image/avif\""), "\(html)")
        #expect(result.wrapped == [offsets[1]])
        #expect(result.findings.map(\.description) == ["index.html:1: <img src=\"img/hero.jpg\">: written without <picture>: " + reason])
        // Without --picture the mark changes nothing.
        let plain = RewriteFixtures.rewriter(RewriteOptions(layout: options.layout)).rewriteHTML(Array(page.utf8), at: "index.html")
        #expect(plain.findings.isEmpty && plain.wrapped.isEmpty && !String(decoding: plain.bytes, as: UTF8.self).contains("<picture"))
    }

    @Test("measuring turns off the srcset dppx wrote and the sizes beside it, and nothing else")
    func measurementMarks() {
        let rewritten = RewriteFixtures.rewriter(RewriteOptions(layout: Self.layout())).rewriteHTML(Array(Self.page.utf8), at: "index.html").bytes
        let handWritten = Array("<img src=\"img/photo.jpg\" srcset=\"other.jpg 2x\" sizes=\"10px\">".utf8)
        let marks = RewriteFixtures.rewriter().measurementMarks(rewritten + handWritten, at: "index.html")
        let names = marks.dppxAttributes.map { String(decoding: (rewritten + handWritten)[$0], as: UTF8.self) }
        #expect(names == ["srcset", "sizes", "srcset", "sizes"])
        #expect(marks.imageTags == ImageTagOffsets.of(rewritten + handWritten))
    }
}
