import DPPXTestSupport
import Foundation
import Testing

/// A theme's own classes named like its images (`class="logo"` on the navbar brand, `.favicon`)
/// keep their look next to the stylesheet dppx css writes by default, in Chromium and Firefox:
/// dppx's rules are `.img-logo`, `.img-favicon`.
@Suite("dppx css never restyles the page's own classes (end to end)", .serialized)
struct ClassClashBrowserTests {
    struct Observation: Decodable {
        let dpr: Double
        /// Element id -> [width, height] in CSS px.
        let boxes: [String: [Double]]
        /// Element id -> its computed `background-image`.
        let backgrounds: [String: String]
    }

    /// `logo@2x.png` (a 54x71 box) and `favicon@2x.png` built into `public/`, the default
    /// stylesheet, and a page whose brand and icon use the bare class names.
    static func makeSite() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["logo@2x.png": (108, 142), "favicon@2x.png": (64, 64)], svg: false)
        try await scenario.build()
        let css = try await scenario.dppx("css", "public", "-o", "images.css")
        guard css.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx css failed: \(css)") }
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8">
        <link rel="stylesheet" href="images.css">
        <style>
        body { margin: 0; font: 16px/20px sans-serif } .logo { display: inline-block; padding: 4px } .favicon { display: inline-block }
        #observation { position: absolute; top: 0; left: 0; margin: 0 }
        </style>
        </head><body>
        <nav><a id="brand" class="logo" href="#">A theme's brand name</a> <span id="icon" class="favicon">icon</span></nav>
        <div id="image" class="img-logo"></div>
        <pre id="observation"></pre>
        <script>
        const boxes = {}, backgrounds = {};
        for (const id of ["brand", "icon", "image"]) {
          const element = document.getElementById(id);
          const rect = element.getBoundingClientRect();
          boxes[id] = [rect.width, rect.height];
          backgrounds[id] = getComputedStyle(element).backgroundImage;
        }
        const observation = JSON.stringify({ dpr: devicePixelRatio, boxes, backgrounds });
        \(PageReport.script(sending: "observation"))
        </script>
        </body></html>
        """
        try scenario.write(page, to: "page.html")
        return scenario
    }

    /// The brand and icon look as the theme wrote them; the image's own class has the image.
    static func check(_ observation: Observation, dpr: Double, browser: String) {
        let context = "\(browser) at DPR \(dpr): \(observation)"
        #expect(observation.dpr == dpr, "\(context)")
        #expect(observation.backgrounds["brand"] == "none" && observation.backgrounds["icon"] == "none", "\(context)")
        let brand = observation.boxes["brand"] ?? [0, 0]
        #expect(brand[0] > 100 && brand[1] < 40, "the brand keeps its text's box, not the logo's 54x71: \(context)")
        #expect(observation.boxes["icon"].map { $0[1] < 32 || $0[0] != 32 } == true, "\(context)")
        #expect(observation.boxes["image"] == [54, 71], "\(context)")
        let expected = dpr >= 2 ? "public/logo@2x.png" : "public/logo.png"
        #expect(observation.backgrounds["image"]?.contains(expected) == true, "\(context)")
    }

    @Test("Chromium: a hand-written .logo and .favicon keep their look; .img-logo shows the image at its box",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func chromium() async throws {
        let chromium = try #require(Chromium.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        for dpr in [1.0, 2.0] {
            Self.check(try await PageReport.chromium(chromium, "page.html", on: server, dpr: dpr), dpr: dpr, browser: "Chromium")
        }
    }

    @Test("Firefox: a hand-written .logo and .favicon keep their look; .img-logo shows the image at its box",
          .enabled(if: Firefox.installed != nil, Firefox.skipReason))
    func firefox() async throws {
        let firefox = try #require(Firefox.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        let collector = try ReportCollector()
        for dpr in [1.0, 2.0] {
            Self.check(try await PageReport.firefox(firefox, "page.html", on: server, collector: collector, run: "clash-\(dpr)", dpr: dpr),
                       dpr: dpr, browser: "Firefox")
        }
    }
}
