import DPPXTestSupport
import Foundation
import Testing

/// The fluid page of `ChromiumFluidTests` in Firefox at 600, 1000 and 1400 px and DPR 1, 2 and
/// 3. Firefox cannot dump its DOM, so the page reports to a `ReportCollector` once its images
/// loaded (before its load event ends): each image's `currentSrc` and box, and the hero's
/// computed `background-image`, the file the media queries picked.
@Suite("Firefox picks fluid widths (end to end)", .serialized, .enabled(if: Firefox.installed != nil, Firefox.skipReason))
struct FirefoxFluidTests {
    struct Observation: Decodable {
        let dpr: Double
        /// Element id -> the path it shows (`/fluid/half-800w.jpg`).
        let shown: [String: String]
        /// Element id -> [width, height] in CSS px.
        let boxes: [String: [Double]]
    }

    static let script = """
    <script>
    let loaded = 0;
    function settle() {
      if (++loaded < 3) return;
      const shown = {}, boxes = {};
      for (const id of ["hero", "full", "half", "third"]) {
        const element = document.getElementById(id);
        const target = id === "hero" ? element : element.querySelector("img");
        const url = id === "hero" ? getComputedStyle(target).backgroundImage.replace(/^url\\("?|"?\\)$/g, "") : target.currentSrc;
        shown[id] = new URL(url, location.href).pathname;
        const rect = target.getBoundingClientRect();
        boxes[id] = [rect.width, rect.height];
      }
      const params = new URLSearchParams(location.search);
      const report = new Image();
      report.src = params.get("collector") + "/report?" + encodeURIComponent(
        "run=" + params.get("run") + " " + JSON.stringify({ dpr: devicePixelRatio, shown, boxes }));
      document.body.appendChild(report);
    }
    for (const image of document.images) {
      if (image.complete && image.currentSrc) settle(); else { image.addEventListener("load", settle); image.addEventListener("error", settle); }
    }
    </script>
    """

    @Test("each image shows the smallest file at least as wide as its box x DPR, the cover hero exactly that; boxes are the page's")
    func widths() async throws {
        let firefox = try #require(Firefox.installed)
        let site = try await ChromiumFluidTests.makeSite()
        // The same markup and stylesheet, reporting to the collector instead of into the DOM.
        // Eager images: lazy ones do not hold the load event, after which Firefox's --screenshot
        // run may end before the page reports (the explicit sizes make the choice the same).
        let page = try #require(site.read("page.html")).replacingOccurrences(of: "loading=\"lazy\"", with: "loading=\"eager\"")
        let body = try #require(page.range(of: "<pre id=\"observation\">"))
        try site.write(String(page[..<body.lowerBound]) + Self.script + "\n</body></html>\n", to: "firefox.html")
        let server = try StaticServer(root: site.root)
        let collector = try ReportCollector()
        for viewport in [600, 1000, 1400] {
            for dpr in [1.0, 2.0, 3.0] {
                let profile = try Firefox.Profile(devicePixelRatio: dpr)
                let run = "\(viewport)-\(dpr)"
                try await firefox.load(server.url("firefox.html?run=\(run)&collector=\(collector.origin)"), in: profile,
                                       windowSize: (viewport, 900))
                let observation = try await collector.observation(of: run, as: Observation.self)
                let context = "at \(viewport) px, DPR \(dpr): shown \(observation.shown), boxes \(observation.boxes)"
                #expect(observation.dpr == dpr, "\(context)")
                let viewportWidth = observation.boxes["hero"]?[0] ?? 0
                let expectedWidths = ["full": viewportWidth, "half": viewportWidth / 2, "third": viewportWidth * 0.33333]
                for (id, width) in expectedWidths {
                    let box = try #require(observation.boxes[id], "\(id) \(context)")
                    #expect(abs(box[0] - width) < 1, "\(id) width \(context)")
                    #expect(abs(box[1] - box[0] / 2) < 1, "\(id) keeps the 2:1 aspect ratio \(context)")
                }
                #expect(observation.shown["hero"].flatMap(ChromiumFluidTests.width) == ChromiumFluidTests.smallest(atLeast: viewportWidth * dpr),
                        "hero \(context)")
                for id in ChromiumFluidTests.images {
                    let cssWidth = observation.boxes[id]?[0] ?? 0
                    #expect(observation.shown[id].flatMap(ChromiumFluidTests.width) == ChromiumFluidTests.smallest(atLeast: cssWidth * dpr),
                            "\(id) \(context)")
                }
            }
        }
    }
}
