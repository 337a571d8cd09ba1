import DPPXTestSupport
import Foundation
import Testing

/// A Tailwind-style grid whose breakpoint is `@media (width >= 48rem)`: one column under it,
/// three from it. Measured and rewritten by `dppx rewrite`, the `sizes` bound at that breakpoint
/// is written in `em`, so with a 20 px default font (a browser setting many people use: `48rem`
/// is then 960 px) Chromium still picks a file as wide as the one-column box at 900 px, as it
/// does with the default 16 px font at 700 px; at 900 px with 16 px the three columns take
/// a third of that.
@Suite("sizes bounds in em follow a larger default font (end to end, Chromium)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct EmBreakpointBrowserTests {
    struct Observation: Decodable {
        /// Per image: its box width, CSS px.
        let boxes: [Double]
        /// Per image: the path of the file shown.
        let shown: [String]
    }

    static let widths = [400, 800, 1200, 1600, 2000]

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>
        body { margin: 0 }
        .grid { display: grid; grid-template-columns: 1fr }
        @media (width >= 48rem) { .grid { grid-template-columns: repeat(3, 1fr) } }
        .grid img { display: block; width: 100%; height: auto }
        </style></head><body>
        <div class="grid"><img src="img/photo.jpg" alt=""><img src="img/photo.jpg" alt=""><img src="img/photo.jpg" alt=""></div>
        <pre id="observation"></pre>
        <script>
        addEventListener("load", () => {
          const images = [...document.querySelectorAll(".grid img")];
          document.getElementById("observation").textContent = JSON.stringify({
            boxes: images.map(image => image.getBoundingClientRect().width),
            shown: images.map(image => new URL(image.currentSrc).pathname) });
        });
        </script>
        </body></html>
        """

    @Test("the bound is written in em; at 900 px with a 20 px default font the one-column images get a file at least as wide as their box")
    func largerDefaultFont() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["photo.jpg": (2400, 1600)], svg: false)
        try await scenario.build(into: "site/img", ["--widths", Self.widths.map(String.init).joined(separator: ",")])
        try scenario.write(Self.page, to: "site/index.html")
        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        let written = try #require(scenario.read("site/index.html"))
        #expect(written.contains(#"sizes="(max-width: 47.99875em) 100vw, 33.3333vw""#), "\(written)")

        let server = try StaticServer(root: scenario.root)
        for (viewport, font, columns) in [(700, 16, 1.0), (900, 16, 3.0), (900, 20, 1.0)] {
            let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: 1, windowSize: (viewport, 700),
                                                 defaultFontSize: font)
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
            let context = "at \(viewport) px with a \(font) px default font: \(observation)\n\(written)"
            #expect(observation.boxes.count == 3 && observation.shown.count == 3, "\(context)")
            for (box, shown) in zip(observation.boxes, observation.shown) {
                #expect(abs(box - Double(viewport) / columns) < 1, "\(columns) columns \(context)")
                let wanted = Self.widths.first { Double($0) >= box } ?? 2400
                #expect(shown == "/site/img/" + (wanted == 2400 ? "photo.jpg" : "photo-\(wanted)w.jpg"), "the file as wide as the box \(context)")
            }
        }
    }
}
