import DPPXTestSupport
import Foundation
import Testing

/// A real browser at each density loads a page with the generated CSS and markup; the page
/// writes what it fetched (Resource Timing) and the boxes it laid out into the DOM.
@Suite("Chromium picks the right variant (end to end)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct ChromiumDensityTests {
    /// What the page reports.
    struct Observation: Decodable {
        let dpr: Double
        /// Paths fetched, e.g. `/plain/hero@2x.jpg`.
        let fetched: [String]
        /// Element id -> [width, height] in CSS px.
        let boxes: [String: [Double]]
    }

    /// Two builds of the same masters: `plain` (JPEG only: media queries and srcset) and
    /// `modern` (plus WebP and AVIF: image-set() and <picture>). `hero` is shown as a CSS
    /// background, `photo` as an image, so each fetch is attributable.
    static func makeSite() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["hero@3x.jpg": (600, 300), "photo@3x.jpg": (600, 300)], svg: false)
        try await scenario.build(into: "plain", ["--densities", "1,1.5,2,3"])
        try await scenario.build(into: "modern", ["--densities", "1,1.5,2,3", "--formats", "webp,avif"])
        for (name, prefix) in [("plain", "plain-"), ("modern", "modern-")] {
            let css = try await scenario.dppx("css", name, "-o", "\(name).css", "--prefix", prefix)
            guard css.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx css failed: \(css)") }
            let html = try await scenario.dppx("html", name, "photo.jpg", "-o", "\(name).html")
            guard html.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx html failed: \(html)") }
        }
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8">
        <link rel="stylesheet" href="plain.css"><link rel="stylesheet" href="modern.css">
        <style>body { margin: 0 } div, span { display: block }</style>
        </head><body>
        <div id="bg-plain" class="plain-hero"></div>
        <div id="bg-modern" class="modern-hero"></div>
        <span id="img-plain">\(scenario.read("plain.html") ?? "")</span>
        <span id="img-modern">\(scenario.read("modern.html") ?? "")</span>
        <pre id="observation"></pre>
        <script>
        let attempts = 0;
        function box(id) {
          const element = document.getElementById(id);
          const target = id.startsWith("img-") ? element.querySelector("img") : element;
          const rect = target.getBoundingClientRect();
          return [rect.width, rect.height];
        }
        function report() {
          const fetched = performance.getEntriesByType("resource").map(entry => new URL(entry.name).pathname);
          // An image a renderer already held (Blink's memory cache, when Chromium gives a busy
          // machine's tabs one renderer) has no entry in the timeline: what it shows is its fetch.
          for (const image of document.images) {
            const shown = image.currentSrc && new URL(image.currentSrc).pathname;
            if (shown && !fetched.includes(shown)) fetched.push(shown);
          }
          const boxes = {};
          for (const id of ["bg-plain", "bg-modern", "img-plain", "img-modern"]) boxes[id] = box(id);
          document.getElementById("observation").textContent = JSON.stringify({ dpr: devicePixelRatio, fetched, boxes });
        }
        function settle() {
          const names = performance.getEntriesByType("resource").map(entry => entry.name);
          const imagesDone = [...document.images].every(image => image.complete && image.naturalWidth > 0);
          const backgroundsDone = ["/plain/hero", "/modern/hero"].every(prefix => names.some(name => name.includes(prefix)));
          // Wait a little longer after everything arrived, so a wrong extra fetch would show too.
          if ((imagesDone && backgroundsDone) || ++attempts > 1200) setTimeout(report, 300);
          else setTimeout(settle, 25);
        }
        addEventListener("load", settle);
        </script>
        </body></html>
        """
        try scenario.write(page, to: "page.html")
        return scenario
    }

    @Test("at DPR 1, 1.5, 2 and 3 the browser fetches exactly the matching variants, and boxes are the CSS size")
    func densities() async throws {
        let chromium = try #require(Chromium.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        for (dpr, suffix) in [(1.0, ""), (1.5, "@1.5x"), (2.0, "@2x"), (3.0, "@3x")] {
            // A browser of its own for each load: in the shared one, busy with the other suites'
            // tabs, this page's images did not load within its 15 s of page time in full runs.
            let dom = try await chromium.dumpDOM(of: server.url("page.html"), deviceScaleFactor: dpr,
                                                 extraArguments: ["--disable-renderer-backgrounding"])
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
            #expect(observation.dpr == dpr)
            let images = Set(observation.fetched.filter { $0.hasPrefix("/plain/") || $0.hasPrefix("/modern/") })
            #expect(images == [
                "/plain/hero\(suffix).jpg", "/plain/photo\(suffix).jpg",
                "/modern/hero\(suffix).avif", "/modern/photo\(suffix).avif",
            ], "at DPR \(dpr) the page fetched \(observation.fetched)")
            for id in ["bg-plain", "bg-modern", "img-plain", "img-modern"] {
                #expect(observation.boxes[id] == [200, 100], "\(id) box at DPR \(dpr)")
            }
        }
    }
}
