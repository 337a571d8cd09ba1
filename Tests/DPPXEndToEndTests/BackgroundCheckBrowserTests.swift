import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// Checking a rewrite, end to end: the rewritten page is measured with the `@media` blocks of
/// `image-set()`s dppx wrote in its stylesheets, each layer read as the file Chromium chose
/// (named by its master) at the size it paints it. A hero whose blocks paint it as before is
/// written; a band whose blocks would paint it at another size is left as it was, with its
/// stylesheet. An image that moves is left as the page wrote it, not the page.
@Suite("Checking a rewrite compares the backgrounds its blocks paint and leaves the image that moved (end to end, Chromium)",
       .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct BackgroundCheckBrowserTests {
    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><link rel="stylesheet" href="css/NAME.css"></head><body>
        <section id="NAME" class="NAME"></section>
        </body></html>

        """

    @Test("a cover hero is written and checked; a band whose blocks paint it at another size (its measurement made wrong) is left as it was with its stylesheet, and named with the size it was painted at")
    func paintedBackgroundChanged() async throws {
        let chromium = try #require(Chromium.installed)
        var scenario = try RenderScenario(masters: ["hero.jpg": (1600, 800), "band.jpg": (1600, 800)], svg: false)
        scenario.environment[SettingRegistry.browserVariable] = chromium.executable
        try await scenario.build(into: "site/img", ["--widths", "400,800,1200", "--formats", "webp"])
        try scenario.write("body { margin: 0 }\n.hero { height: 300px; background: url(../img/hero.jpg) center / cover no-repeat; }\n",
                           to: "site/css/hero.css")
        try scenario.write("body { margin: 0 }\n.band { height: 900px; background: url(../img/band.jpg) no-repeat; }\n", to: "site/css/band.css")
        for name in ["hero", "band"] {
            try scenario.write(Self.page.replacingOccurrences(of: "NAME", with: name), to: "site/\(name).html")
        }
        let measure = try await scenario.dppx("measure", "site", "--timeout", "240")
        #expect(measure.status == 0, "\(measure)")

        // The band's layer recorded as a cover painted half as wide as it is: its blocks then
        // describe each file against half the band's natural width, and its `auto` layer paints
        // every file at half its size.
        let layoutPath = scenario.scratch("site/img/" + LayoutFile.fileName)
        var layout = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: layoutPath))) as? [String: Any])
        var pages = try #require(layout["pages"] as? [String: Any])
        var band = try #require(pages["band.html"] as? [String: Any])
        var backgrounds = try #require(band["backgrounds"] as? [[String: Any]])
        #expect(backgrounds.count == 1 && backgrounds[0]["size"] as? String == "auto", "\(backgrounds)")
        backgrounds[0]["size"] = "cover"
        backgrounds[0]["samples"] = try #require(backgrounds[0]["samples"] as? [[Double]]).map { sample in
            [sample[0], sample[1], sample[2], sample[3] / 2, sample[4] / 2]
        }
        band["backgrounds"] = backgrounds
        pages["band.html"] = band
        layout["pages"] = pages
        try JSONSerialization.data(withJSONObject: layout, options: [.sortedKeys]).write(to: URL(fileURLWithPath: layoutPath))
        let untouchedBand = scenario.read("site/css/band.css")

        let rewrite = try await scenario.dppx("rewrite", "site/hero.html", "site/band.html", "site/css/hero.css", "site/css/band.css", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        #expect(rewrite.stdout.contains("checked 2 rewritten pages (1 left as it was)"), "\(rewrite)")
        let hero = try #require(scenario.read("site/css/hero.css"))
        #expect(hero.contains("@media") && hero.contains("image-set("), "the hero's blocks are written:\n\(hero)")
        #expect(scenario.read("site/css/band.css") == untouchedBand, "the band's stylesheet is left as it was")
        let output = rewrite.stdout + rewrite.stderr
        #expect(output.contains("band.html:1: left as it was: rewritten, the background /img/band.jpg of #band was painted 800x400 px"),
                "\(rewrite)")
        #expect(output.contains("css/band.css left as it was too"), "\(rewrite)")
        #expect(!output.contains("hero.html:1: left as it was"), "\(rewrite)")
        #expect(DeployableSite.missingFiles(under: scenario.scratch("site")) == [], "the pages name files that are there")
    }

    @Test("an <img> with a sizes of its own and no width in CSS, which its srcset would resize, is left as the page wrote it and named; the page's other images are written, and a second run writes nothing")
    func oneImageNotThePage() async throws {
        let chromium = try #require(Chromium.installed)
        var scenario = try RenderScenario(masters: ["a.jpg": (800, 400), "b.jpg": (800, 400), "c.jpg": (800, 400)], svg: false)
        scenario.environment[SettingRegistry.browserVariable] = chromium.executable
        try await scenario.build(into: "site/img", ["--widths", "300,600", "--formats", "webp"])
        try scenario.write("""
            <!doctype html>
            <html><head><meta charset="utf-8"><style>
            body { margin: 0 } img { display: block } .box { width: 300px } .box img { width: 100% }
            </style></head><body>
            <div class="box"><img id="a" src="img/a.jpg" alt="a"></div>
            <div class="box"><img id="b" src="img/b.jpg" alt="b"></div>
            <div><img id="c" src="img/c.jpg" sizes="100vw" alt="c"></div>
            </body></html>

            """, to: "site/index.html")
        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        #expect(rewrite.stdout.contains("checked 1 rewritten page (0 left as they were)"), "\(rewrite)")
        let output = rewrite.stdout + rewrite.stderr
        #expect(output.contains("index.html:7: <img src=\"img/c.jpg\">: its box moved when its rewrite was checked: with its srcset it was drawn "),
                "\(rewrite)")
        let written = try #require(scenario.read("site/index.html"))
        for image in ["a", "b"] {
            #expect(written.contains("<img id=\"\(image)\" src=\"img/\(image).jpg\" alt=\"\(image)\" srcset=\"img/\(image)-300w.jpg 300w"), "\(written)")
        }
        #expect(written.contains("<img id=\"c\" src=\"img/c.jpg\" sizes=\"100vw\" alt=\"c\"></div>"), "left as the page wrote it:\n\(written)")
        #expect(DeployableSite.missingFiles(under: scenario.scratch("site")) == [], "the page names files that are there")

        try scenario.age("site/index.html")
        let modified = scenario.modificationDate("site/index.html")
        let again = try await scenario.dppx("rewrite", "site/index.html", "--root", "site", "--explain")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("measured 0 pages (1 unchanged since the last run)"), "\(again)")
        #expect((again.stdout + again.stderr).contains("index.html:7: <img src=\"img/c.jpg\">: its box moved when its rewrite was checked"), "\(again)")
        #expect(scenario.read("site/index.html") == written && scenario.modificationDate("site/index.html") == modified, "the page is not written")
    }
}
