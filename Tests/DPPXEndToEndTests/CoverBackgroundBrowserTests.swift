import DPPXTestSupport
import Foundation
import Testing

/// A full-screen `background-size: cover` hero whose rule states its box (`cover = "100vw
/// 100vh"`), in Chromium and Firefox at a tall phone-like window and a wide one: the file the
/// media queries pick is the smallest at least as wide as cover draws the 2:1 image (the larger
/// of the viewport's width and twice its height) times the DPR, where the width alone would pick
/// one a third as wide on the tall window.
@Suite("Cover backgrounds in tall boxes (end to end)", .serialized)
struct CoverBackgroundBrowserTests {
    struct Observation: Decodable {
        let dpr: Double
        /// The viewport, CSS px.
        let viewport: [Double]
        /// The hero's box, CSS px.
        let box: [Double]
        /// The hero's computed `background-image`.
        let background: String
    }

    static let ladder = [400, 800, 1200, 1600, 2400, 3200, 4000]
    static let windows = [(500, 700), (1200, 500)]

    static func makeSite() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["hero.jpg": (4000, 2000)], svg: false)
        try scenario.write("""
            [[rule]]
            match = "hero.jpg"
            widths = [400, 800, 1200, 1600, 2400, 3200]
            cover = "100vw 100vh"
            """, to: "dppx.toml")
        try await scenario.build(into: "fluid")
        let css = try await scenario.dppx("css", "fluid", "-o", "cover.css", "--base-url", "/fluid/")
        guard css.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx css failed: \(css)") }
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8">
        <link rel="stylesheet" href="cover.css">
        <style>
        html, body { margin: 0; overflow: hidden } #hero { height: 100vh; background-size: cover; background-position: center }
        #observation { position: absolute; top: 0; left: 0; margin: 0 }
        </style>
        </head><body>
        <div id="hero" class="img-hero"></div>
        <pre id="observation"></pre>
        <script>
        const hero = document.getElementById("hero");
        const rect = hero.getBoundingClientRect();
        const observation = JSON.stringify({ dpr: devicePixelRatio, viewport: [innerWidth, innerHeight], box: [rect.width, rect.height],
                                             background: getComputedStyle(hero).backgroundImage });
        \(PageReport.script(sending: "observation"))
        </script>
        </body></html>
        """
        try scenario.write(page, to: "page.html")
        return scenario
    }

    /// The width of the file in a computed `background-image`: `url("http://.../fluid/hero-800w.jpg")` is 800, the master 4000.
    static func fileWidth(of background: String) -> Int? {
        guard let start = background.range(of: "/fluid/hero") else { return nil }
        let rest = background[start.upperBound...]
        if rest.hasPrefix(".jpg") { return 4000 }
        guard rest.hasPrefix("-"), let w = rest.firstIndex(of: "w") else { return nil }
        return Int(rest[rest.index(after: rest.startIndex)..<w])
    }

    /// The file is the smallest at least max(width, 2 x height) x DPR wide.
    static func check(_ observation: Observation, dpr: Double, browser: String) {
        let context = "\(browser) at DPR \(dpr): \(observation)"
        #expect(observation.dpr == dpr, "\(context)")
        let (width, height) = (observation.viewport[0], observation.viewport[1])
        #expect(observation.box == [width, height], "the hero covers the viewport: \(context)")
        let needed = max(width, height * 2) * dpr
        let expected = ladder.first { Double($0) >= needed } ?? ladder.last!
        #expect(fileWidth(of: observation.background) == expected, "expected the \(expected)w file for \(needed) device px: \(context)")
    }

    @Test("Chromium: a 100vw x 100vh cover hero gets a file at least as wide as cover draws it",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func chromium() async throws {
        let chromium = try #require(Chromium.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        for window in Self.windows {
            for dpr in [1.0, 2.0, 3.0] {
                Self.check(try await PageReport.chromium(chromium, "page.html", on: server, dpr: dpr, window: window), dpr: dpr, browser: "Chromium")
            }
        }
    }

    @Test("Firefox: a 100vw x 100vh cover hero gets a file at least as wide as cover draws it",
          .enabled(if: Firefox.installed != nil, Firefox.skipReason))
    func firefox() async throws {
        let firefox = try #require(Firefox.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        let collector = try ReportCollector()
        for window in Self.windows {
            for dpr in [1.0, 2.0, 3.0] {
                Self.check(try await PageReport.firefox(firefox, "page.html", on: server, collector: collector, run: "cover-\(window.0)-\(dpr)",
                                                        dpr: dpr, window: window), dpr: dpr, browser: "Firefox")
            }
        }
    }
}
