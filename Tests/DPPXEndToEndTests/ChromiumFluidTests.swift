import DPPXTestSupport
import Foundation
import Testing

/// A real browser at phone-ish, tablet and desktop widths and DPR 1, 2 and 3 loads a fluid
/// page: images at 100%, 50% and 33% of the page (dppx html, with the rules' `sizes`) and a
/// `cover` hero (dppx css). The page reports what it fetched and the boxes it laid out.
@Suite("Chromium picks fluid widths (end to end)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct ChromiumFluidTests {
    struct Observation: Decodable {
        let dpr: Double
        let fetched: [String]
        /// Element id -> [width, height] in CSS px.
        let boxes: [String: [Double]]
    }

    static let ladder = [400, 800, 1200, 1600, 2000]
    static let images = ["full", "half", "third"]

    static func makeSite() async throws -> RenderScenario {
        var masters: [String: (width: Int, height: Int)] = ["hero.jpg": (2000, 1000)]
        for name in images { masters[name + ".jpg"] = (2000, 1000) }
        let scenario = try RenderScenario(masters: masters, svg: false)
        // The page's layout, told to dppx html: Chromium reads sizes="auto" only for images it
        // lays out before fetching, so images in the first screen need their sizes stated.
        try scenario.write("""
            [[rule]]
            match = "full.jpg"
            sizes = "100vw"
            [[rule]]
            match = "half.jpg"
            sizes = "50vw"
            [[rule]]
            match = "third.jpg"
            sizes = "33.333vw"
            """, to: "dppx.toml")
        try await scenario.build(into: "fluid", ["--widths", "400,800,1200,1600"])
        for name in images {
            let html = try await scenario.dppx("html", "fluid", name + ".jpg", "-o", name + ".html", "--base-url", "/fluid/")
            guard html.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx html failed: \(html)") }
        }
        let css = try await scenario.dppx("css", "fluid", "hero.jpg", "-o", "fluid.css", "--base-url", "/fluid/")
        guard css.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx css failed: \(css)") }
        func markup(_ name: String) -> String { scenario.read(name + ".html") ?? "" }
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8">
        <link rel="stylesheet" href="fluid.css">
        <style>
        body { margin: 0 } .row { display: flex } .c50 { width: 50% } .c33 { width: 33.333% }
        img { display: block; width: 100%; height: auto } #hero { height: 100px; background-size: cover }
        </style>
        </head><body>
        <div id="hero" class="img-hero"></div>
        <div id="full">\(markup("full"))</div>
        <div class="row"><div class="c50" id="half">\(markup("half"))</div><div class="c33" id="third">\(markup("third"))</div></div>
        <pre id="observation"></pre>
        <script>
        let attempts = 0;
        function report() {
          const fetched = performance.getEntriesByType("resource").map(entry => new URL(entry.name).pathname);
          // An image a renderer already held (Blink's memory cache, when Chromium gives a busy
          // machine's tabs one renderer) has no entry in the timeline: what it shows is its fetch.
          for (const image of document.images) {
            const shown = image.currentSrc && new URL(image.currentSrc).pathname;
            if (shown && !fetched.includes(shown)) fetched.push(shown);
          }
          const boxes = {};
          for (const id of ["hero", "full", "half", "third"]) {
            const element = document.getElementById(id);
            const target = id === "hero" ? element : element.querySelector("img");
            const rect = target.getBoundingClientRect();
            boxes[id] = [rect.width, rect.height];
          }
          document.getElementById("observation").textContent = JSON.stringify({ dpr: devicePixelRatio, fetched, boxes });
        }
        function settle() {
          const names = performance.getEntriesByType("resource").map(entry => entry.name);
          const imagesDone = [...document.images].every(image => image.complete && image.naturalWidth > 0);
          if ((imagesDone && names.some(name => name.includes("/fluid/hero"))) || ++attempts > 1200) setTimeout(report, 300);
          else setTimeout(settle, 25);
        }
        addEventListener("load", settle);
        </script>
        </body></html>
        """
        try scenario.write(page, to: "page.html")
        return scenario
    }

    /// The width in a fetched path: `/fluid/half-800w.jpg` is 800, `/fluid/half.jpg` the master's 2000.
    static func width(of path: String) -> Int? {
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dash = file.lastIndex(of: "-"), let dot = file.lastIndex(of: "."), file[file.index(before: dot)] == "w" else {
            return 2000
        }
        return Int(file[file.index(after: dash)..<file.index(before: dot)])
    }

    /// The smallest rung at least `needed` device px wide, else the widest.
    static func smallest(atLeast needed: Double) -> Int { ladder.first { Double($0) >= needed } ?? ladder.last! }

    /// Chromium's srcset choice (Blink's `SelectionLogic`): from the candidates' densities at
    /// `cssWidth`, the first at least the DPR, except that above DPR 1 it keeps the one below
    /// when the DPR is under the geometric mean of the two.
    static func chromiumChoice(cssWidth: Double, dpr: Double) -> Int {
        let densities = ladder.map { Double($0) / cssWidth }
        var index = 0
        while index < densities.count - 1 {
            if densities[index] >= dpr { return ladder[index] }
            let next = densities[index + 1]
            if next < dpr { index += 1; continue }
            if (dpr <= 1 && dpr > densities[index]) || dpr >= (densities[index] * next).squareRoot() { return ladder[index + 1] }
            break
        }
        return ladder[index]
    }

    @Test("each image and the cover hero fetch one file: the smallest at least as wide as the box x DPR; boxes are the page's")
    func widths() async throws {
        let chromium = try #require(Chromium.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        for viewport in [600, 1000, 1400] {
            for dpr in [1.0, 2.0, 3.0] {
                // A browser of its own for each load: in the shared one, busy with the other suites'
                // tabs, this page's images did not load within its 15 s of page time in full runs.
                let dom = try await chromium.dumpDOM(of: server.url("page.html"), deviceScaleFactor: dpr, windowSize: (viewport, 900),
                                                     extraArguments: ["--disable-renderer-backgrounding"])
                let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
                let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
                let fetched = observation.fetched.filter { $0.hasPrefix("/fluid/") }
                let context = "at \(viewport) px, DPR \(dpr): fetched \(fetched), boxes \(observation.boxes)"
                // Boxes: what the page's own CSS gives, the same as with the master alone.
                let expectedWidths = ["hero": Double(viewport), "full": Double(viewport), "half": Double(viewport) / 2,
                                      "third": Double(viewport) * 0.33333]
                for (id, width) in expectedWidths {
                    let box = try #require(observation.boxes[id], "\(id) \(context)")
                    #expect(abs(box[0] - width) < 1, "\(id) width \(context)")
                    if id != "hero" { #expect(abs(box[1] - box[0] / 2) < 1, "\(id) keeps the 2:1 aspect ratio \(context)") }
                }
                let hero = fetched.filter { $0.hasPrefix("/fluid/hero") }
                #expect(hero.map(Self.width) == [Self.smallest(atLeast: Double(viewport) * dpr)], "hero \(context)")
                for id in Self.images {
                    let files = fetched.filter { $0.hasPrefix("/fluid/\(id)") }
                    let cssWidth = observation.boxes[id]?[0] ?? 0
                    let strict = Self.smallest(atLeast: cssWidth * dpr)
                    let chromium = Self.chromiumChoice(cssWidth: cssWidth, dpr: dpr)
                    #expect(files.count == 1, "\(id) fetched once \(context)")
                    #expect(files.first.flatMap(Self.width).map { $0 == strict || $0 == chromium } == true,
                            "\(id): expected \(strict) (or \(chromium) by Chromium's geometric-mean rule) \(context)")
                }
            }
        }
    }
}
