@testable import DPPXCore
import Foundation
import Testing

/// `dppx-layout.json` is data from the repository and a measured page is the site's own code:
/// numbers no layout has are refused when read, naming the field, nothing after that can trap,
/// and the fitter stays n log n however many samples a file holds.
@Suite struct LayoutNumbersTests {
    /// Two pages: an image over a Bootstrap-like ladder, a cover background and heights.
    static func sample() -> LayoutFile {
        let viewports = stride(from: 320.0, through: 2560, by: 40)
        let image = LayoutFile.Image(offset: 212, src: "img/a.jpg", samples: viewports.map {
            LayoutFile.Sample(viewport: $0, width: $0 < 768 ? $0 - 24 : min($0, 1140) / 3 - 24, height: 200)
        })
        let layer = LayoutFile.Background(element: "html > body:nth-child(2)", layer: 1, url: "/img/hero.jpg", size: "cover", samples: viewports.map {
            LayoutFile.BackgroundSample(viewport: $0, areaWidth: $0, areaHeight: 560, paintedWidth: max($0, 1120), paintedHeight: max(560, $0 / 2))
        }, sheet: "css/site.css", selector: ".hero")
        let page = LayoutFile.Page(hash: "h", dependencies: ["index.html", "css/site.css"], viewportHeight: 800, scrollbars: "hidden",
                                   images: [image], backgrounds: [layer], heights: viewports.map { LayoutFile.PageHeight(viewport: $0, height: 1234.5) },
                                   loadedElements: 14)
        return LayoutFile(pages: ["index.html": page, "about.html": page])
    }

    static func encoded(_ layout: LayoutFile) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(layout)) ?? Data(), as: UTF8.self)
    }

    @Test("a sample of 1e20, a negative width, a viewport of 0 or 80,000 samples on one image: that page is refused, naming the field")
    func refusedPages() throws {
        var text = Self.encoded(Self.sample())
        text.replaceSubrange(try #require(text.range(of: "[320,296,200]")), with: "[320,1e20,200]")
        let checked = try LayoutFile.decode(Array(text.utf8))
        #expect(checked.layout.pages.count == 1)
        let problem = try #require(checked.refused.values.first)
        #expect(problem.description.hasSuffix("images.0.samples.0.width is 1e+20, but a layout has finite CSS px from 0 to 33554432"), "\(problem)")
        for (old, new, field) in [("[320,296,200]", "[320,-1,200]", "images.0.samples.0.width"), ("[320,296,200]", "[0,296,200]", "images.0.samples.0.viewport"),
                                  ("\"layer\":1", "\"layer\":-1", "backgrounds.0.layer"), ("\"viewportHeight\":800", "\"viewportHeight\":1e300", "viewportHeight"),
                                  ("[320,320,560,1120,560]", "[320,320,560,1e-300,560]", "backgrounds.0.samples.0.paintedWidth")] {
            var text = Self.encoded(Self.sample())
            text.replaceSubrange(try #require(text.range(of: old), "\(old)"), with: new)
            let refused = try LayoutFile.decode(Array(text.utf8)).refused
            #expect(refused.count == 1 && refused.values.first?.field.hasSuffix(field) == true, "\(new): \(refused)")
        }
        var many = Self.sample()
        many.pages["index.html"]!.images[0].samples = (0..<80_000).map { LayoutFile.Sample(viewport: 320 + Double($0) / 40, width: 300, height: 200) }
        let bounded = try LayoutFile.decode(Array(Self.encoded(many).utf8))
        #expect(bounded.refused["index.html"]?.description == "pages.index.html.images.0.samples is 80000 samples, but a layout has at most 4096 samples an occurrence")
        #expect(try LayoutFile.decode(Array(Self.encoded(Self.sample()).utf8)).refused.isEmpty, "the sample itself reads")
        #expect(throws: LayoutFileError.self) { try LayoutFile.decode(Array("{\"version\":5,\"pages\":[1e400]}".utf8)) }
        // An `unwrapped` reason is printed: a terminal's escape or a megabyte of it is refused.
        for reason in ["its computed `width` changed\u{1b}[2J", String(repeating: "a", count: LayoutLimits.reasonLength + 1)] {
            var marked = Self.sample()
            marked.pages["index.html"]!.images[0].unwrapped = reason
            #expect(try LayoutFile.decode(Array(Self.encoded(marked).utf8)).refused["index.html"]?.field == "pages.index.html.images.0.unwrapped")
        }
        // A background's nested conditions and image functions are bounded as the measuring script's are.
        for (nested, images) in [(Array(repeating: "@media all", count: 9), nil), (nil, [String(repeating: "a", count: 1025)] as [String]?)] {
            var layered = Self.sample()
            layered.pages["index.html"]!.backgrounds[0].nested = nested
            layered.pages["index.html"]!.backgrounds[0].images = images
            #expect(try LayoutFile.decode(Array(Self.encoded(layered).utf8)).refused["index.html"]?.field == "pages.index.html.backgrounds.0")
        }
        var marked = Self.sample()
        marked.pages["index.html"]!.images[0].unwrapped = "its computed `width` changed at a 320 px viewport (`.card > img` no longer matches)"
        #expect(try LayoutFile.decode(Array(Self.encoded(marked).utf8)).layout == marked, "a reason as the check writes it reads back")
    }

    @Test("a sample whose content is painted wider than its box keeps that width as a fourth number, read back to the same bytes; 1e20 there is refused, five numbers are not a sample")
    func paintedWidths() throws {
        var layout = Self.sample()
        // A square card of a 3:2 photo with object-fit: cover, painted 1.5 times its width.
        layout.pages["index.html"]!.images[0].samples = [LayoutFile.Sample(viewport: 390, width: 366, height: 366, painted: 549),
                                                         LayoutFile.Sample(viewport: 1280, width: 300, height: 200, painted: 300)]
        let text = Self.encoded(layout)
        #expect(text.contains("[[390,366,366,549],[1280,300,200]]"), "\(text)")
        let read = try LayoutFile.decode(Array(text.utf8))
        #expect(read.refused.isEmpty && read.layout == layout)
        #expect(Self.encoded(read.layout) == text)
        #expect(read.layout.pages["index.html"]?.images[0].boxSamples == [BoxSample(viewport: 390, width: 549), BoxSample(viewport: 1280, width: 300)])
        let huge = try LayoutFile.decode(Array(text.replacingOccurrences(of: "[390,366,366,549]", with: "[390,366,366,1e20]").utf8))
        #expect(huge.refused["index.html"]?.field.hasSuffix("images.0.samples.0.painted") == true, "\(huge.refused)")
        #expect(throws: LayoutFileError.self) {
            try LayoutFile.decode(Array(text.replacingOccurrences(of: "[390,366,366,549]", with: "[390,366,366,549,1]").utf8))
        }
    }

    @Test("numbers no layout has are written without trapping: 1e19, 1e300, infinity, a density of a 1e-17 px layer")
    func writingAnyNumber() {
        #expect(SizesLength.number(1e19) == "1e+19")
        #expect(SizesLength.number(-1e300) == "-1e+300")
        #expect(SizesLength.number(.infinity) == "0" && SizesLength.number(.nan) == "0")
        #expect(SizesLength.number(1e307, decimals: 8) == "1e+307")
        #expect(SizesLength(perViewport: 1e17, pixels: -1e19).description.hasPrefix("calc("))
        #expect(BackgroundRanges.density(file: 400, painted: 1e-17).isEmpty == false)
        #expect(SizesFitter().fit([BoxSample(viewport: 320, width: 1e19), BoxSample(viewport: 360, width: 2e19)]) != .refused(.noSamples))
        let ranges = BackgroundRanges(layers: [.init(samples: [BoxSample(viewport: 320, width: 5e-324), BoxSample(viewport: 360, width: 1e300)],
                                                     fileWidths: [100, 200])])
        #expect(!ranges.ranges.isEmpty)
    }

    @Test("80,000 samples on one image fit in a moment (they took 40 s), the same sizes as a few of them")
    func manySamples() throws {
        let line = (0..<80_000).map { BoxSample(viewport: 320 + Double($0) * 0.028, width: (320 + Double($0) * 0.028) / 2 - 12) }
        let started = ContinuousClock.now
        let fit = SizesFitter().fit(line)
        let fitted = ContinuousClock.now - started
        _ = SizesFitter().refinements(of: line)
        let refined = ContinuousClock.now - started
        #expect(refined < .seconds(4), "fitted in \(fitted), refined in \(refined - fitted) (a debug build)")
        #expect(fit == SizesFitter().fit(stride(from: 0, to: line.count, by: 8000).map { line[$0] }))
        let widest = BackgroundRanges.widest(of: Array(repeating: Array(line.prefix(4096)), count: 20))
        #expect(widest.count == 4096)
    }

    @Test("a run grown sample by sample gives the length line(through:) gives for the same samples")
    func growingRunAgrees() {
        var generator = SeededNumbers(state: 0x1a70_0053)
        for _ in 0..<300 {
            var samples: [BoxSample] = []
            var viewport = 320.0
            let slope = Double(generator.next(200)) / 100 - 0.5, offset = Double(generator.next(400))
            for _ in 0..<(2 + generator.next(40)) {
                viewport += Double(1 + generator.next(60))
                let noise = Double(generator.next(100)) / 100 * (generator.next(4) == 0 ? 2 : 0.3)
                samples.append(BoxSample(viewport: viewport, width: max(1, slope * viewport + offset + noise)))
            }
            var run = SizesFitter.GrowingRun()
            for end in samples.indices {
                run.add(samples[end])
                let grown = run.line(), whole = SizesFitter.line(through: samples[...end])
                #expect((grown == nil) == (whole == nil), "\(samples[...end])")
                if let grown, let whole {
                    #expect(abs(grown.asWritten.perViewport - whole.asWritten.perViewport) <= 0.0001
                            && abs(grown.asWritten.pixels - whole.asWritten.pixels) <= 0.01, "\(grown) \(whole)")
                }
            }
        }
    }

    static var hostileValues: [ManifestNumbersTests.JSON] { [
        "1e308", "-1e308", "1e400", "5e-324", "1e20", "1e-17", "0", "-0", "-1", "1", "2.5", "33554433", "100001", "4096",
        "9223372036854775807", "true", "null", "\"\"", "\"cover\"", "\"1e-17px\"", "\"auto 1e300px\"", "[]", "{}", "[1e308, 1, 1]",
        "[320, 1e20, 1]", "[320, 1, 1, 1, 1]",
    ].map { .literal($0) } }

    @Test("fuzz: random JSON values in every field of a layout file never crash the decoder, the fitter, the background ranges or the ladder")
    func fuzz() throws {
        let object = try JSONSerialization.jsonObject(with: Data(Self.encoded(Self.sample()).utf8))
        let template = ManifestNumbersTests.JSON(object)
        let leaves = template.leaves()
        var generator = SeededNumbers(state: 0x5eed_0053)
        let hostileValues = Self.hostileValues
        let deadline = ContinuousClock.now + .seconds(20)
        var decoded = 0, iterations = 0
        while iterations < 3000, ContinuousClock.now < deadline {
            iterations += 1
            var json = template
            for _ in 0...generator.next(3) {
                let leaf = leaves[generator.next(leaves.count)]
                json = json.replacing(leaf[...], with: hostileValues[generator.next(hostileValues.count)])
            }
            guard let checked = try? LayoutFile.decode(Array(json.text.utf8)) else { continue }
            for page in checked.layout.pages.values {
                decoded += 1
                for image in page.images {
                    _ = SizesFitter().fit(image.boxSamples)
                    _ = SizesFitter().refinements(of: image.boxSamples)
                    _ = MeasuredLadder(masterWidth: 2400, boxWidths: image.samples.map(\.width))
                }
                for layer in page.backgrounds {
                    let ranges = BackgroundRanges(layers: [.init(samples: layer.boxSamples, fileWidths: [480, 960, 2400])])
                    _ = ranges.ranges.map(\.mediaQuery)
                    _ = BackgroundRanges.widest(of: [layer.boxSamples, layer.boxSamples])
                    _ = BackgroundSize(computed: layer.size)
                }
                _ = LayoutComparison.difference(before: page, after: Self.sample().pages["index.html"]!, lineOfOffset: { _ in 1 })
            }
        }
        #expect(iterations > 500, "the fuzz ran")
        #expect(decoded > 50, "some mutations are valid layout files, so the fitter runs on them")
    }
}
