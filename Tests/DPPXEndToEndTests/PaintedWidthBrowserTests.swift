import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// What an image needs is the width it is painted at, not its box's, end to end: one `dppx
/// build` with `[rewrite] pages` measures a page of square `object-fit: cover` cards of a 3:2
/// photo (the photo painted 1.5 times as wide as each card) and a page of a `background-size:
/// auto` band whose rule also paints a `cover` block 2560 px wide. In Chromium (and Firefox)
/// the cards keep their boxes and fetch files as wide as the photo is painted, and the band
/// paints at the size the untouched page gave it.
@Suite("Painted widths: object-fit cards and an auto background (end to end)",
       .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct PaintedWidthBrowserTests {
    typealias Observation = MeasuredLayoutBrowserTests.Observation

    /// A 3:2 photo, and a 2:1 band whose left half is dark and right half light.
    static let photo = (width: 2400, height: 1600)
    static let band = (width: 1600, height: 800)

    static let stylesheet = """
    body { margin: 0; font-family: sans-serif; }
    img { display: block; }
    .cards { display: grid; grid-template-columns: 1fr; gap: 12px; padding: 12px; }
    @media (min-width: 768px) { .cards { grid-template-columns: repeat(3, 1fr); } }
    .card { width: 100%; height: auto; aspect-ratio: 1 / 1; object-fit: cover; }
    .top { object-position: left top; }
    .off { object-position: 80% 20%; }
    .band { height: 400px; background: url(../img/band.jpg) left top no-repeat; }
    .band.tall { height: 1280px; background-size: cover; }

    """

    static let head = #"<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="css/site.css"></head><body>"#

    /// The pages as the site had them before dppx, by path under `site/`.
    static let pages: [String: String] = [
        "cards.html": head + """

        <div class="cards">
        <img id="a" class="card" src="img/photo.jpg" alt="a">
        <img id="b" class="card top" src="img/photo.jpg" alt="b">
        <img id="c" class="card off" src="img/photo.jpg" alt="c">
        </div>
        \(MeasuredLayoutBrowserTests.script)
        </body></html>

        """,
        "band.html": head + """

        <section class="band"></section>
        <section class="band tall"></section>
        </body></html>

        """,
    ]

    /// The site: masters in `src/`, pages in `site/` with an untouched copy of each (and of
    /// the stylesheet, which the build rewrites) that no rewrite lists.
    static func makeSite(browser: String) throws -> RenderScenario {
        var scenario = try RenderScenario(masters: ["photo.jpg": photo], svg: false)
        let pixels = (0..<(band.width * band.height)).flatMap { index -> [UInt8] in
            index % band.width < band.width / 2 ? [30, 40, 110] : [235, 225, 140]
        }
        try TestImages.writePixels(pixels, width: band.width, height: band.height, bands: 3, to: scenario.scratch("src/band.jpg"))
        try scenario.write(stylesheet, to: "site/css/site.css")
        try scenario.write(stylesheet, to: "site/css/untouched.css")
        for (page, text) in pages {
            try scenario.write(text, to: "site/" + page)
            try scenario.write(text.replacingOccurrences(of: "css/site.css", with: "css/untouched.css"), to: "site/untouched-" + page)
        }
        try scenario.write("""
            [build]
            source = "src"
            out = "site/img"
            [rewrite]
            root = "site"
            pages = ["site/cards.html", "site/band.html", "site/css/site.css"]
            """, to: "dppx.toml")
        scenario.environment[SettingRegistry.browserVariable] = browser
        return scenario
    }

    /// The width of the file at `path`: `-592w` in its name, else (the plain name) its master's.
    static func fileWidth(_ path: String) -> Int? {
        let stem = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if let dash = stem.lastIndex(of: "-"), stem.hasSuffix("w"), let width = Int(stem[stem.index(after: dash)..<stem.index(before: stem.endIndex)]) {
            return width
        }
        return stem == "photo" ? photo.width : stem == "band" ? band.width : nil
    }

    /// Chromium, and Firefox loading the page as the window's own (in a frame, Firefox chose a
    /// card's file now and then before the frame had its width, with a `sizes` of 0, and chose
    /// again only after the load event the report is sent before).
    static func engines(dpr: Double) throws -> [MeasuredLayoutBrowserTests.Engine] {
        var engines: [MeasuredLayoutBrowserTests.Engine] = []
        if let chromium = Chromium.installed {
            engines.append(.init(name: "chromium") { url, width in
                _ = try await chromium.dumpDOM(of: url, deviceScaleFactor: dpr, windowSize: (width, 800))
            })
        }
        if let firefox = Firefox.installed {
            let profile = try Firefox.Profile(devicePixelRatio: dpr)
            engines.append(.init(name: "firefox") { url, width in
                try await firefox.load(url, in: profile, windowSize: (width, 800))
            })
        }
        return engines
    }

    @Test("square object-fit: cover cards of a 3:2 photo: measured painted 1.5 times as wide as the card whatever their object-position; at 390 px DPR 3, 1280 px DPR 1 and 820 px DPR 2 each keeps its box and fetches a file at least 0.95 x the painted width x DPR; a second build writes nothing")
    func coverCards() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try Self.makeSite(browser: chromium.executable)
        let build = try await scenario.dppx("build")
        #expect(build.status == 0, "\(build)")
        #expect(build.stdout.contains("checked 2 rewritten pages (0 left as they were)"), "\(build)")
        let cards = try #require(scenario.read("site/cards.html"))
        #expect(cards.components(separatedBy: #"srcset=""#).count - 1 == 3, "every card has a srcset: \(cards)")

        // Measured: the painted width beside each box, 1.5 times it, the same for each
        // object-position.
        let layoutBytes = try Data(contentsOf: URL(fileURLWithPath: scenario.scratch("site/img/" + LayoutFile.fileName)))
        let layout = try LayoutFile.decode(Array(layoutBytes)).layout
        let images = try #require(layout.pages["cards.html"]?.images)
        #expect(images.count == 3)
        for image in images {
            #expect(!image.samples.isEmpty && image.samples.allSatisfy { $0.width > 0 && abs($0.paintedWidth - $0.width * 1.5) <= 0.01 },
                    "\(image.samples.prefix(4))")
            // The grid's columns differ by 1/64 px here and there; the photo is painted as wide
            // in each card whatever its object-position.
            #expect(image.samples.count == images[0].samples.count && zip(image.samples, images[0].samples).allSatisfy {
                $0.viewport == $1.viewport && abs($0.paintedWidth - $1.paintedWidth) <= 0.1
            }, "object-position moves the photo, it does not scale it")
        }

        let server = try StaticServer(root: scenario.scratch("site"))
        let collector = try ReportCollector()
        var runs = 0
        for (viewport, dpr) in [(390, 3.0), (1280, 1.0), (820, 2.0)] {
            for engine in try Self.engines(dpr: dpr) {
                var observed: [Observation] = []
                for served in ["untouched-cards.html", "cards.html"] {
                    runs += 1
                    try await engine.load(server.url(served) + "?run=\(runs)&collector=\(collector.origin)", viewport)
                    observed.append(try await collector.observation(of: "\(runs)", as: Observation.self))
                }
                let (before, after) = (observed[0], observed[1])
                let context = "\(engine.name) at \(viewport) px, DPR \(dpr)"
                #expect(after.dpr == dpr && after.innerWidth == Double(viewport), "\(context): \(after.dpr), \(after.innerWidth) px")
                for id in ["a", "b", "c"] {
                    let card = try #require(after.images[id], "\(id) \(context)")
                    let untouched = try #require(before.images[id], "\(id) \(context)")
                    #expect(zip(card.box, untouched.box).allSatisfy { abs($0 - $1) <= 0.5 }, "\(id) moved \(context): \(card.box), \(untouched.box) untouched")
                    // Square box, 3:2 photo: painted as wide as the box's height times 1.5.
                    let painted = max(card.box[2], card.box[3] * 1.5)
                    let width = try #require(Self.fileWidth(card.src), "\(card.src)")
                    #expect(Double(width) >= 0.95 * painted * dpr || width == Self.photo.width,
                            "\(id) shows \(card.src) (\(width) px) painted \(painted) px wide \(context), srcset \(card.srcset)")
                }
            }
        }

        // A second build: nothing measured, nothing written.
        let site = MeasuredLayoutBrowserTests.files(under: scenario.scratch("site"))
        let second = try await scenario.dppx("build")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("measured 0 pages (2 unchanged since the last run)"), "\(second)")
        let now = MeasuredLayoutBrowserTests.files(under: scenario.scratch("site"))
        #expect(now.keys.sorted() == site.keys.sorted(), "the second build added or removed files")
        for (file, state) in site where now[file] != state {
            Issue.record("the second build changed \(file)")
        }
    }

    /// Where the band's dark left half ends along a row of `file`, in device px: the first pixel
    /// of the row `y` whose channels sum over 450 (the light half is 600, the dark 180).
    static func edge(in file: DecodedFile, y: Int) -> Int? {
        (0..<file.width).first { x in
            (0..<3).reduce(0) { $0 + Int(file.pixels[(y * file.width + x) * file.bands + $1]) } > 450
        }
    }

    @Test("a background-size: auto band whose rule also paints a cover block 2560 px wide: at 1280 px, DPR 1 and 2, in Chromium and Firefox, it is painted at the size the untouched page gave it (its light half from 800 CSS px)")
    func autoBand() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try Self.makeSite(browser: chromium.executable)
        let build = try await scenario.dppx("build")
        #expect(build.status == 0, "\(build)")
        let stylesheet = try #require(scenario.read("site/css/site.css"))
        #expect(stylesheet.contains("@media") && stylesheet.contains("image-set("), "the band's rule got its blocks: \(stylesheet)")

        let server = try StaticServer(root: scenario.scratch("site"))
        for dpr in [1.0, 2.0] {
            // A screenshot of the page in each browser: Chromium's at the DPR, Firefox's at
            // 1 pixel a CSS px whatever its DPR (which still picks the files).
            var engines: [(name: String, shoot: (String, String) async throws -> Void)] = [("chromium", { url, shot in
                try await chromium.screenshot(of: url, to: shot, deviceScaleFactor: dpr, windowSize: (1280, 800))
            })]
            if let firefox = Firefox.installed {
                let profile = try Firefox.Profile(devicePixelRatio: dpr)
                engines.append(("firefox", { url, shot in
                    try await firefox.load(url, in: profile, windowSize: (1280, 800))
                    try FileManager.default.copyItem(atPath: profile.folder("screenshot.png"), toPath: shot)
                }))
            }
            for engine in engines {
                // Where the light half starts, in CSS px.
                var edges: [String: Double] = [:]
                for served in ["untouched-band.html", "band.html"] {
                    let shot = scenario.scratch("\(engine.name)-\(served)-\(dpr).png")
                    try await engine.shoot(server.url(served), shot)
                    let file = try DecodedFile(shot)
                    let scale = Double(file.width) / 1280
                    edges[served] = Self.edge(in: file, y: Int(100 * scale)).map { Double($0) / scale }
                }
                let context = "\(engine.name) at 1280 px, DPR \(dpr): \(edges)\n\(stylesheet)"
                let untouched = try #require(edges["untouched-band.html"], "the untouched band's light half \(context)")
                #expect(abs(untouched - 800) <= 2, "the untouched band paints 1600 CSS px wide \(context)")
                let rewritten = try #require(edges["band.html"], "the rewritten band's light half is on the screen \(context)")
                #expect(abs(rewritten - untouched) <= 2, "painted at another size than the untouched band \(context)")
            }
        }
    }
}
