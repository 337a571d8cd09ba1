import DPPXTestSupport
import Foundation
import Testing

/// A carousel of five slides of which only the active one is displayed (the others
/// `display: none` by a class), and two tab panels of which one is `hidden`: measured and
/// rewritten by `dppx rewrite`, every slide gets the `sizes` of the first and a `srcset`, and
/// both panels alike, since the hidden ones are measured shown in their track and tab list. When
/// the page's script shows slide 3 and the second panel after load, Chromium draws them with
/// a file at least as wide as their box needs. An image in a closed `<dialog>` (no sibling of
/// its kind is shown) is still left without `srcset`, and one a `@media` rule hides below
/// 768 px gets a `sizes` all the same (the width where it is shown nearest, where it is not).
/// The page's `ResizeObserver` never sees a slide it does not show with a box.
@Suite("Hidden slides and tab panels are measured shown (end to end, Chromium)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct HiddenImageBrowserTests {
    struct Observation: Decodable {
        /// Slide 3's image and the second panel's, each [box width, the width of the file shown].
        let shown: [[Double]]
    }

    static let widths = [400, 800, 1200, 1600, 2000]

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>
        body { margin: 0 }
        .carousel { max-width: 960px; margin: 0 auto; padding: 0 16px }
        .track { display: flex; overflow: hidden }
        .slide { display: none; flex: 0 0 100% }
        .slide.active { display: block }
        .slide img, .wide img { display: block; width: 100%; height: auto }
        .tabs { padding: 0 8px }
        [role="tabpanel"] img { display: block; width: 50%; height: auto }
        .wide { display: none }
        @media (min-width: 768px) { .wide { display: block; width: 50% } }
        .seen .carousel { max-width: 400px }
        </style></head><body>
        <div class="carousel"><div class="track">
        <div class="slide active"><img src="img/slide.jpg" alt="slide 1"></div>
        <div class="slide"><img src="img/slide.jpg" alt="slide 2"></div>
        <div class="slide"><img src="img/slide.jpg" alt="slide 3"></div>
        <div class="slide"><img src="img/slide.jpg" alt="slide 4"></div>
        <div class="slide"><img src="img/slide.jpg" alt="slide 5"></div>
        </div></div>
        <div class="tabs">
        <div role="tabpanel"><img src="img/panel.jpg" alt="panel 1"></div>
        <div role="tabpanel" hidden><img src="img/panel.jpg" alt="panel 2"></div>
        </div>
        <dialog><img src="img/other.jpg" alt="dialog"></dialog>
        <div class="wide"><img src="img/other.jpg" alt="wide"></div>
        <pre id="observation"></pre>
        <script>
        // A slide the page does not show never has a box for its scripts: measuring shows it
        // within one call, between frames. (Seen, the carousel would narrow.)
        const watcher = new ResizeObserver((entries) => {
          for (const entry of entries) {
            if (entry.contentRect.width > 0 && !entry.target.classList.contains("active")) document.body.classList.add("seen");
          }
        });
        document.querySelectorAll(".slide").forEach((slide) => watcher.observe(slide));
        // At the load event every image is in (none is lazy): the file each shows is the one
        // its sizes picked.
        addEventListener("load", () => {
          const slides = document.querySelectorAll(".slide");
          slides[0].classList.remove("active");
          slides[2].classList.add("active");
          const panels = document.querySelectorAll("[role=tabpanel]");
          panels[0].hidden = true;
          panels[1].hidden = false;
          const images = [slides[2].querySelector("img"), panels[1].querySelector("img")];
          const shown = images.map(image => {
            const name = new URL(image.currentSrc).pathname.split("/").pop();
            const match = /-(\\d+)w\\./.exec(name);
            return [image.getBoundingClientRect().width, match ? Number(match[1]) : 2400];
          });
          document.getElementById("observation").textContent = JSON.stringify({ shown });
        });
        </script>
        </body></html>
        """

    /// The `sizes` written on the `<img>` of `alt`, nil when it has none.
    static func sizes(of alt: String, in page: String) -> String? {
        guard let tag = page.range(of: #"alt="\#(alt)""#), let end = page[tag.upperBound...].firstIndex(of: ">") else { return nil }
        let rest = page[tag.upperBound..<end]
        guard let start = rest.range(of: #"sizes=""#), let close = rest[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(rest[start.upperBound..<close])
    }

    @Test("every slide and panel gets the sizes of the one shown; shown by the page's script, each gets a file at least as wide as its box needs")
    func carouselAndTabs() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["slide.jpg": (2400, 1000), "panel.jpg": (2400, 1600), "other.jpg": (2400, 1200)], svg: false)
        try await scenario.build(into: "site/img", ["--widths", Self.widths.map(String.init).joined(separator: ",")])
        try scenario.write(Self.page, to: "site/index.html")
        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        let written = try #require(scenario.read("site/index.html"))
        let context = "\(written)\n\(rewrite.stderr)"

        let slides = (1...5).map { Self.sizes(of: "slide \($0)", in: written) }
        #expect(slides.allSatisfy { $0 == "(max-width: 992.98px) calc(100vw - 32px), 960px" }, "\(slides)\n\(context)")
        let panels = (1...2).map { Self.sizes(of: "panel \($0)", in: written) }
        #expect(panels.allSatisfy { $0 == "calc(50vw - 8px)" }, "\(panels)\n\(context)")
        #expect(written.components(separatedBy: #"<img src="img/slide.jpg" alt="slide "#).count == 6)
        #expect(written.components(separatedBy: #"srcset="img/slide-400w.jpg 400w, "#).count == 6, "\(context)")
        #expect(written.components(separatedBy: #"srcset="img/panel-400w.jpg 400w, "#).count == 3, "\(context)")
        // A closed dialog's image: no sibling of its kind is shown, its width when shown is unknown.
        #expect(written.contains(#"<img src="img/other.jpg" alt="dialog">"#), "\(context)")
        #expect(rewrite.stderr.contains("not displayed at a 320 px viewport nor at any other"), "\(rewrite.stderr)")
        // Hidden under 768 px by a @media rule: there, the width it is shown at nearest.
        let wide = try #require(Self.sizes(of: "wide", in: written), "\(context)")
        #expect(wide.hasPrefix("(max-width: 76") && wide.hasSuffix("px, 50vw"), "\(wide)")

        let server = try StaticServer(root: scenario.root)
        for (viewport, dpr) in [(1280, 1.0), (600, 2.0)] {
            let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: dpr, windowSize: (viewport, 700))
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            let observation = try #require(try? JSONDecoder().decode(Observation.self, from: Data(json.utf8)),
                                           "the page's observation at \(viewport) px: \(json)\n\(dom)")
            let boxes = [Double(min(viewport - 32, 960)), (Double(viewport) - 16) / 2]
            #expect(observation.shown.count == 2, "\(observation)")
            for (shown, box) in zip(observation.shown, boxes) {
                #expect(abs(shown[0] - box) < 1, "shown by the page's script at \(viewport) px: \(observation)")
                let wanted = Self.widths.first { Double($0) >= box * dpr } ?? 2400
                #expect(shown[1] >= box * dpr && shown[1] == Double(wanted),
                        "a file at least as wide as the box at \(viewport) px DPR \(dpr): \(observation)\n\(written)")
            }
        }
    }
}
