import DPPXCore
import DPPXMeasure
import DPPXRewrite
import DPPXTestSupport
import Foundation
import Testing

/// A 70vh `cover` hero under a gradient, painting a fluid image: measured in Chromium, its
/// stylesheet rewritten from the layout (`@media` blocks after the rule), then loaded again at
/// 500 and 1280 px and DPR 1 and 2. Every box stays where the untouched site put it, the
/// gradient stays, and the file fetched is the narrowest at least as wide as the hero is painted.
@Suite("Measured CSS backgrounds (end to end, Chromium)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct MeasuredBackgroundBrowserTests {
    struct Observation: Decodable {
        let fetched: [String]
        /// Element id -> [x, y, width, height].
        let boxes: [String: [Double]]
        let heroImage: String
        let viewportHeight: Double
    }

    static let ladder = [480, 800, 1200, 1600, 2000]
    static let master = 2400

    static let stylesheet = """
        body { margin: 0; }
        .hero {
          height: 70vh;
          background: linear-gradient(rgba(0, 0, 0, .4), rgba(0, 0, 0, .4)), url(../img/hero.jpg) center / cover no-repeat;
        }
        .text { width: 50%; height: 40px; margin: 10px auto; }

        """

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><link rel="stylesheet" href="css/site.css"></head><body>
        <section id="hero" class="hero"></section>
        <div id="text" class="text"></div>
        <pre id="observation"></pre>
        <script>
        let attempts = 0;
        function report() {
          const fetched = performance.getEntriesByType("resource").map(entry => new URL(entry.name).pathname).filter(path => path.startsWith("/site/img/"));
          const boxes = {};
          for (const id of ["hero", "text"]) {
            const rect = document.getElementById(id).getBoundingClientRect();
            boxes[id] = [rect.x, rect.y, rect.width, rect.height];
          }
          const heroImage = getComputedStyle(document.getElementById("hero")).backgroundImage;
          document.getElementById("observation").textContent = JSON.stringify({ fetched, boxes, heroImage, viewportHeight: innerHeight });
        }
        function settle() {
          const done = performance.getEntriesByType("resource").some(entry => entry.name.includes("/img/hero"));
          if (done || ++attempts > 200) setTimeout(report, 300); else setTimeout(settle, 25);
        }
        addEventListener("load", settle);
        </script>
        </body></html>
        """

    /// The width in a fetched path: `/site/img/hero-1200w.webp` is 1200, `/site/img/hero.jpg` the master's.
    static func width(of path: String) -> Int {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dash = file.lastIndex(of: "-"), let dot = file.lastIndex(of: "."), file[file.index(before: dot)] == "w",
              let width = Int(file[file.index(after: dash)..<file.index(before: dot)]) else { return master }
        return width
    }

    func observe(_ chromium: Chromium, _ server: StaticServer, viewport: Int, dpr: Double) async throws -> Observation {
        let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: dpr, windowSize: (viewport, 800))
        let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
        return try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
    }

    @Test("the rewritten hero keeps its gradient and its boxes, and fetches a file as wide as it is painted")
    func hero() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["hero.jpg": (Self.master, 1200)], svg: false)
        try await scenario.build(into: "site/img", ["--widths", Self.ladder.map(String.init).joined(separator: ",")])
        try scenario.write(Self.stylesheet, to: "site/css/site.css")
        try scenario.write(Self.page, to: "site/index.html")
        let server = try StaticServer(root: scenario.root)
        let cases = [(500, 1.0), (500, 2.0), (1280, 1.0), (1280, 2.0)]
        var before: [String: Observation] = [:]
        for (viewport, dpr) in cases { before["\(viewport) \(dpr)"] = try await observe(chromium, server, viewport: viewport, dpr: dpr) }

        // Measure at the window's viewport height (70vh is counted against it), and rewrite
        // the stylesheet from the layout.
        let result = try await MeasuredStylesheet(site: scenario.root + "/site", stylesheet: Self.stylesheet,
                                                  height: Int(try #require(before["1280 1.0"]).viewportHeight), chromium: chromium)
        let rewritten = result.text
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(rewritten.contains("@media"), "\(rewritten)")
        try scenario.write(rewritten, to: "site/css/site.css")

        for (viewport, dpr) in cases {
            let after = try await observe(chromium, server, viewport: viewport, dpr: dpr)
            let untouched = try #require(before["\(viewport) \(dpr)"])
            let context = "at \(viewport) px, DPR \(dpr): \(after)\n\(rewritten)"
            for (id, box) in untouched.boxes {
                let now = try #require(after.boxes[id])
                #expect(zip(box, now).allSatisfy { abs($0 - $1) <= 0.5 }, "\(id) moved from \(box) \(context)")
            }
            #expect(after.heroImage.hasPrefix("linear-gradient("), "the gradient is kept \(context)")
            // Cover over a 70vh box of a 2:1 image: as wide as the box, or as twice its height.
            let hero = try #require(untouched.boxes["hero"])
            let painted = max(hero[2], hero[3] * 2)
            let wanted = Self.ladder.first { Double($0) >= painted * dpr } ?? Self.master
            #expect(after.fetched.map(Self.width) == [wanted], "one file, as wide as painted \(context)")
        }
    }
}
