import DPPXCore
@testable import DPPXMeasure
import Foundation
import Testing

/// Every number a measured page reports, and every number in `dppx-layout.json`, is untrusted:
/// checked against the ranges a layout has when it comes in, the page (or the file's entry)
/// named with why, and never a trap.
@Suite("Measured numbers")
struct MeasuredNumbersTests {
    let root: String
    let responder: SiteResponder
    static let page = #"<p><img src="a.png"><img src="b.png"><image data-dppx-at="1e300" src="c.png">"#

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-numbers-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try Self.page.write(toFile: root + "/index.html", atomically: true, encoding: .utf8)
        try ".hero { background: url(a.png) }".write(toFile: root + "/css/site.css", atomically: true, encoding: .utf8)
        try "png".write(toFile: root + "/a.png", atomically: true, encoding: .utf8)
        responder = SiteResponder(root: root, imageSizes: [:], marks: { _, _ in
            PageMarks(imageTags: [3, 20], imageSources: [3: "a.png", 20: "b.png"])
        })
    }

    func samples() -> Samples {
        Samples(text: PageText(page: "index.html", bytes: Array(Self.page.utf8), responder: responder))
    }

    static func report(images: [[JSONValue]] = [], backgrounds: [[JSONValue]] = [], height: JSONValue = 900, shown: JSONValue? = nil) -> JSONValue {
        .object(["clientWidth": 320, "height": height, "loadedElements": 3, "images": .array(images.map(JSONValue.array)),
                 "backgrounds": .array(backgrounds.map(JSONValue.array))].merging(shown.map { ["shown": $0] } ?? [:]) { a, _ in a })
    }

    func problem(_ report: JSONValue) -> LayoutLimits.Problem? {
        var samples = samples()
        do { try samples.add(report, viewport: 320) } catch { return error }
        return nil
    }

    @Test("an offset of 1e300, a box of 1e19 px, NaN or a negative width is a problem naming where, not a trap")
    func pageNumbers() throws {
        let forged = try #require(problem(Self.report(images: [[.number(1e300), 100, 50, "c.png", 0, 0]])))
        #expect(forged.description.contains("offset") && forged.description.contains("1e+300"), "\(forged)")
        let unmarked = try #require(problem(Self.report(images: [[7, 100, 50, "c.png", 0, 0]])))
        #expect(unmarked.description.contains("an <img> tag there"), "\(unmarked)")
        let huge = try #require(problem(Self.report(images: [[3, .number(1e19), 50, "a.png", 0, 0]])))
        #expect(huge.description.contains("the width of its <img> at byte 3 at a 320 px viewport is 1e+19"), "\(huge)")
        #expect(problem(Self.report(images: [[3, .number(-1), 50, "a.png", 0, 0]])) != nil)
        #expect(problem(Self.report(images: [[3, 100, 50, "a.png", .number(.infinity), 0]])) != nil)
        #expect(problem(Self.report(height: .number(1e300))) != nil)
        #expect(problem(Self.report(images: [["3", 100, 50]])) != nil, "a report not of the script's shape")
        let area = try #require(problem(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "cover",
                                                                    .number(1e19), 100, 100, 100, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .null]])))
        #expect(area.description.contains("area width"), "\(area)")
        #expect(problem(Self.report(images: [[3, 100.5, 50, "a.png", 0, 0]])) == nil, "a real box")
    }

    @Test("an <img>'s content is painted per its object-fit in its content box, from the size dppx answers its file at rather than the one the page reports; a natural size of 1e20 is a problem")
    func paintedContent() throws {
        // a.png is a 3:2 image of a manifest (1500x1000); the page claims 100x100 for it.
        let known = SiteResponder(root: root, imageSizes: ["a.png": PixelSize(width: 1500, height: 1000)], marks: { _, _ in
            PageMarks(imageTags: [3, 20], imageSources: [3: "a.png", 20: "b.png"])
        })
        func image(_ offset: Int, fit: String, content: (Double, Double), url: String, natural: JSONValue = 100) -> [JSONValue] {
            [.number(Double(offset)), 310, 310, "a.png", 0, 0, .string(fit), .number(content.0), .number(content.1), .string(url), natural, natural]
        }
        func painted(_ fit: String, url: String = "http://dppx.localhost/a.png", natural: JSONValue = 100) throws -> Double? {
            var samples = Samples(text: PageText(page: "index.html", bytes: Array(Self.page.utf8), responder: known))
            // 5 px of padding on each side: a 300 px square content box.
            try samples.add(Self.report(images: [image(3, fit: fit, content: (300, 300), url: url, natural: natural)]), viewport: 390)
            return samples.images.first?.samples.first.map(\.paintedWidth)
        }
        #expect(try painted("cover") == 450, "the master's 3:2, not the page's 1:1")
        #expect(try painted("contain") == 300)
        #expect(try painted("fill") == 300, "the content box, not the 310 px box")
        #expect(try painted("none") == 1500)
        #expect(try painted("scale-down") == 300)
        #expect(try painted("something-new") == 300, "a value dppx does not know is taken as fill")
        // A file of no manifest: the page's own report of its natural size (here 1:1).
        #expect(try painted("cover", url: "http://dppx.localhost/b.png") == 300)
        #expect(try painted("cover", url: "http://dppx.localhost/b.png", natural: 0) == 300, "no natural size: the box")
        var samples = Samples(text: PageText(page: "index.html", bytes: Array(Self.page.utf8), responder: known))
        #expect(throws: LayoutLimits.Problem.self) {
            try samples.add(Self.report(images: [image(3, fit: "cover", content: (300, 300), url: "http://dppx.localhost/b.png", natural: .number(1e20))]), viewport: 390)
        }
        #expect(throws: LayoutLimits.Problem.self) {
            try samples.add(Self.report(images: [image(3, fit: "cover", content: (.nan, 300), url: "http://dppx.localhost/a.png")]), viewport: 390)
        }
    }

    @Test("an <img> the measuring showed keeps its box and no place, and is recorded as shown; a shown list of 1e300, of an unmarked offset or longer than the images is a problem")
    func shownImages() throws {
        var samples = samples()
        let images: [[JSONValue]] = [[3, 300, 200, "a.png", 40, 900], [20, 100, 50, "b.png", 0, 0]]
        try samples.add(Self.report(images: images, shown: [3]), viewport: 320)
        try samples.add(Self.report(images: images), viewport: 360)
        let first = try #require(samples.images.first)
        #expect(first.shown == true && first.samples.map(\.width) == [300, 300])
        #expect(first.samples[0].left == nil && first.samples[0].top == nil, "where a shown box sits is not the page's")
        #expect(first.samples[1].left == 40 && first.samples[1].top == 900)
        #expect(samples.images.last?.shown == nil)
        func shown(_ list: JSONValue) -> LayoutLimits.Problem? {
            problem(Self.report(images: images, shown: list))
        }
        #expect(shown([.number(1e300)]) != nil)
        #expect(shown([7]) != nil, "not an <img> tag the page marked")
        #expect(shown([3, 20, 3]) != nil, "more than the report's images")
        #expect(shown("3") != nil)
        #expect(shown([3, 20]) == nil)
    }

    @Test("a layer painted auto at some widths and cover at others is one entry per background-size, each with its own viewports")
    func layerPerSize() throws {
        var samples = samples()
        try samples.add(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "cover",
                                                  320, 100, 200, 100, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .null]]), viewport: 320)
        try samples.add(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "auto",
                                                  1280, 100, 200, 100, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .null]]), viewport: 1280)
        let layers = samples.backgrounds
        #expect(layers.map(\.size) == ["auto", "cover"], "\(layers)")
        #expect(layers.map { $0.samples.map(\.viewport) } == [[1280], [320]])
        #expect(layers.map { $0.samples.map(\.paintedWidth) } == [[200], [320]])
    }

    @Test("checking, a layer painted from an image-set() option paints its file's pixels over the option's resolution, is an entry per file chosen and may be off by a pixel of it; a resolution no option has is a problem")
    func imageSetOption() throws {
        try "png".write(toFile: root + "/b.png", atomically: true, encoding: .utf8)
        var samples = samples()
        try samples.add(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "auto",
                                                  320, 100, 400, 200, "http://dppx.localhost/css/site.css", ".hero", .null, .null, 2]]), viewport: 320)
        try samples.add(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/b.png", "auto",
                                                  1280, 100, 400, 200, "http://dppx.localhost/css/site.css", ".hero", .null, .null, 0.5]]), viewport: 1280)
        let layers = samples.backgrounds
        #expect(layers.map(\.url) == ["/a.png", "/b.png"], "\(layers)")
        #expect(layers.flatMap { $0.samples.map { [$0.paintedWidth, $0.paintedHeight] } } == [[200, 100], [800, 400]])
        #expect(layers.flatMap { $0.samples.map(\.grain) } == [0.5, 2])
        #expect(problem(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "auto",
                                                   320, 100, 400, 200, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .number(1e9)]])) != nil)
        #expect(problem(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "auto",
                                                   320, 100, 400, 200, "http://dppx.localhost/css/site.css", ".hero", .null, .null, 0]])) != nil)
    }

    @Test("a layer nested in its rule's @media, or painting another image, is an entry of its own; conditions the sheet does not write leave it unnamed")
    func nestedLayer() throws {
        try ".hero { background: url(a.png); @media (max-width: 600px) { background-image: url(b.png) } }"
            .write(toFile: root + "/css/nested.css", atomically: true, encoding: .utf8)
        try "png".write(toFile: root + "/b.png", atomically: true, encoding: .utf8)
        var samples = samples()
        func layer(_ url: String, _ nested: JSONValue) -> [JSONValue] {
            ["html > body:nth-child(2)", 0, .string("http://dppx.localhost/" + url), "cover", 320, 100, 200, 100, "http://dppx.localhost/css/nested.css", ".hero", nested, .null, .null]
        }
        try samples.add(Self.report(backgrounds: [layer("b.png", ["@media (max-width: 600px)"])]), viewport: 390)
        try samples.add(Self.report(backgrounds: [layer("a.png", .null)]), viewport: 1280)
        try samples.add(Self.report(backgrounds: [layer("a.png", ["@media (max-width: 600px)"])]), viewport: 500)
        let layers = samples.backgrounds
        #expect(layers.map(\.url) == ["/a.png", "/a.png", "/b.png"], "\(layers)")
        #expect(layers.map(\.nested) == [nil, ["@media (max-width: 600px)"], ["@media (max-width: 600px)"]])
        #expect(layers.map { $0.samples.map(\.viewport) } == [[1280], [500], [390]])
        var forged = self.samples()
        try forged.add(Self.report(backgrounds: [layer("b.png", ["@media (ghp_secret: 1)"]), layer("a.png", ["@layer x"]),
                                                 layer("a.png", .array(Array(repeating: "@media all", count: 9)))]), viewport: 390)
        #expect(forged.backgrounds.count == 2 && forged.backgrounds.allSatisfy { $0.selector == nil && $0.sheet == nil && $0.nested == nil },
                "\(forged.backgrounds)")
    }

    @Test("a layer records the image functions of the declaration the browser kept; a name no image function has is not recorded")
    func imageFunctions() throws {
        var samples = samples()
        func layer(_ index: Double, _ images: JSONValue) -> [JSONValue] {
            ["html > body:nth-child(2)", .number(index), "http://dppx.localhost/a.png", "cover", 320, 100, 200, 100,
             "http://dppx.localhost/css/site.css", ".hero", .null, images, .null]
        }
        try samples.add(Self.report(backgrounds: [layer(0, ["-webkit-linear-gradient", "url"]), layer(1, ["url", "ghp_secret"]),
                                                  layer(2, .array(Array(repeating: "url", count: 65)))]), viewport: 320)
        #expect(samples.backgrounds.map(\.images) == [["-webkit-linear-gradient", "url"], nil, nil], "\(samples.backgrounds)")
        #expect(samples.backgrounds.allSatisfy { $0.selector == ".hero" })
    }

    @Test("a background painted under 1/64 px paints nothing (1e-17px): left out, and nothing after it divides by it")
    func tinyBackground() throws {
        var samples = samples()
        try samples.add(Self.report(backgrounds: [["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "1e-17px",
                                                  320, 100, 100, 100, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .null]]), viewport: 320)
        #expect(samples.backgrounds.isEmpty)
        #expect(BackgroundRanges(layers: [.init(samples: [BoxSample(viewport: 320, width: 1e-17)], fileWidths: [100, 200])]).ranges.count == 1)
    }

    @Test("the src recorded is the tag's in the page's source, and a layer's URL, sheet and selector only the site's own")
    func pageText() throws {
        var samples = samples()
        try samples.add(Self.report(images: [[3, 100, 50, "img/TOKEN-ghp_secret.png", 0, 0]], backgrounds: [
            ["html > body:nth-child(2)", 0, "http://dppx.localhost/a.png", "cover", 320, 100, 100, 100, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .null],
            ["html > body:nth-child(2)", 1, "http://dppx.localhost/a.png", "cover", 320, 100, 100, 100, "http://dppx.localhost/css/site.css", ".ghp_secret", .null, .null, .null],
            ["#ghp_secret", 0, "http://dppx.localhost/a.png", "cover", 320, 100, 100, 100, "http://dppx.localhost/css/site.css", ".hero", .null, .null, .null],
            ["html > body:nth-child(2)", 2, "data:image/svg+xml,ghp_secret", "cover", 320, 100, 100, 100, .null, .null, .null, .null, .null],
            ["html > body:nth-child(2)", 3, "http://dppx.localhost/ghp_secret.png", "cover", 320, 100, 100, 100, .null, .null, .null, .null, .null],
        ]), viewport: 320)
        #expect(samples.images.map(\.src) == ["a.png"])
        let layers = samples.backgrounds
        #expect(layers.count == 2, "\(layers)")
        #expect(layers.allSatisfy { $0.url == "/a.png" && $0.element == "html > body:nth-child(2)" })
        #expect(layers.first { $0.layer == 0 }?.selector == ".hero" && layers.first { $0.layer == 0 }?.sheet == "css/site.css")
        #expect(layers.first { $0.layer == 1 }.map { $0.selector == nil && $0.sheet == nil } == true, "a selector the sheet does not write")
        // Words of a script the page loaded count: a web component the site's own script creates.
        try "customElements.define('my-carousel', class extends HTMLElement {})".write(toFile: root + "/app.js", atomically: true, encoding: .utf8)
        var loading = Samples(text: PageText(page: "index.html", bytes: Array(Self.page.utf8), responder: responder, loaded: { ["app.js"] }))
        let component: [JSONValue] = ["html > body:nth-child(2) > my-carousel:nth-child(1)", 0, "http://dppx.localhost/a.png", "cover",
                                      320, 100, 100, 100, .null, .null, .null, .null, .null]
        try loading.add(Self.report(backgrounds: [component]), viewport: 320)
        #expect(loading.backgrounds.count == 1)
        var unloaded = self.samples()
        try unloaded.add(Self.report(backgrounds: [component]), viewport: 320)
        #expect(unloaded.backgrounds.isEmpty, "not written in any file the page loaded")

        let encoded = String(decoding: SiteMeasurement.encoded(LayoutFile(pages: ["index.html": LayoutFile.Page(
            hash: "", dependencies: [], viewportHeight: 800, scrollbars: "hidden", images: samples.images, backgrounds: layers)])), as: UTF8.self)
        #expect(!encoded.contains("secret"), "\(encoded)")
    }

    @Test("a layout file with a sample of 1e20 or 80,000 samples on one image: that page is left out and named, the rest read")
    func tamperedLayoutFile() throws {
        let sample = LayoutFile.Sample(viewport: 320, width: 300, height: 200)
        func page(_ samples: [LayoutFile.Sample]) -> LayoutFile.Page {
            LayoutFile.Page(hash: "h", dependencies: ["index.html"], viewportHeight: 800, scrollbars: "hidden",
                            images: [LayoutFile.Image(offset: 3, src: "a.png", samples: samples)], backgrounds: [])
        }
        let path = root + "/" + LayoutFile.fileName
        var text = String(decoding: SiteMeasurement.encoded(LayoutFile(pages: ["a.html": page([sample]), "b.html": page([sample])])), as: UTF8.self)
        text.replaceSubrange(try #require(text.range(of: "[320,300,200]]")), with: "[320,1e20,200]]")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        var problems: [MeasureError] = []
        let read = SiteMeasurement.read(path, problems: &problems)
        #expect(read.pages.count == 1, "one page kept")
        #expect(problems.count == 1)
        #expect(problems.first?.description.contains("images.0.samples.0.width is 1e+20") == true, "\(problems)")
        #expect(problems.first?.description.contains(path) == true)

        let many = (0..<80_000).map { LayoutFile.Sample(viewport: 320 + Double($0) / 40, width: 300, height: 200) }
        try Data(SiteMeasurement.encoded(LayoutFile(pages: ["a.html": page(many)]))).write(to: URL(fileURLWithPath: path))
        problems = []
        #expect(SiteMeasurement.read(path, problems: &problems).pages.isEmpty)
        #expect(problems.first?.description.contains("80000 samples") == true, "\(problems)")

        try "{\"version\": 3, \"pages\": 7}".write(toFile: path, atomically: true, encoding: .utf8)
        problems = []
        #expect(SiteMeasurement.read(path, problems: &problems).pages.isEmpty)
        #expect(problems.first?.description.contains("is not a layout file dppx can read") == true, "\(problems)")
    }

    @Test("styles a page reports are checked: hashes of 16 hex digits, property names of CSS, values below 2^32, marked offsets, rules of the site's words")
    func styles() throws {
        var samples = samples()
        let hash = "0123456789abcdef", other = "fedcba9876543210"
        // The content box, object-fit and file (painted width) come first, the styles after.
        try samples.add(Self.report(images: [[3, 100, 50, "a.png", 0, 0, "fill", 100, 50, "", 100, 50, .string(hash), .string(other)]]), viewport: 320)
        #expect(throws: LayoutLimits.Problem.self) {
            var forged = self.samples()
            try forged.add(Self.report(images: [[3, 100, 50, "a.png", 0, 0, "fill", 100, 50, "", 100, 50, "<script>", .string(other)]]), viewport: 320)
        }
        func problem(_ table: JSONValue?, named: JSONValue? = nil, rules: JSONValue? = nil, matched: JSONValue? = nil) -> LayoutLimits.Problem? {
            var copy = samples
            do { try copy.addStyles(table, named: named, rules: rules, matched: matched) } catch { return error }
            return nil
        }
        #expect(problem(.object([hash: .object(["width": 12, "object-fit": 4_294_967_295])])) == nil)
        #expect(problem(.object([hash: .object(["width": .number(4_294_967_296)])])) != nil)
        #expect(problem(.object([hash: .object(["--made-up": 1])])) != nil, "no custom property")
        #expect(problem(.object([hash: .object([String(repeating: "a", count: 65): 1])])) != nil)
        #expect(problem(.object(["not a hash": .object([:])])) != nil)
        let many = JSONValue.object(Dictionary(uniqueKeysWithValues: (0..<(LayoutLimits.propertiesPerStyle + 1)).map { ("p\($0)", JSONValue.number(1)) }))
        #expect(problem(.object([hash: many])) != nil)
        // No script selector was installed: any index is out of range, as is an unmarked offset.
        #expect(problem(nil, named: .object(["3": 0])) != nil)
        // A rule of words the site does not write is dropped; one that it does is kept, on the holder.
        var kept = samples
        try kept.addStyles(nil, named: nil,
                           rules: .array([.array(["http://dppx.localhost/css/site.css", ".hero > img", .array(["width"])]),
                                          .array(["http://dppx.localhost/css/site.css", ".secret-word > img", .array(["width"])])]),
                           matched: .object(["3": .array([.array([1, 0]), .array([0, 1])])]))
        #expect(kept.styles.rules[3] == [ImageStyles.Rule(holder: true, selector: ".hero > img", properties: ["width"])])
        #expect(problem(nil, rules: .array([.array(["http://dppx.localhost/css/site.css", ".hero", .array(["not a property!"])])])) != nil)
        #expect(problem(nil, rules: .array([]), matched: .object(["3": .array([.array([0, 0])])])) != nil, "no such rule")
        #expect(problem(nil, rules: .array([]), matched: .object(["7": .array([])])) != nil, "no marked <img> there")
    }
}
