import DPPXTestSupport
import Foundation
import Testing

/// A slider whose script sets each slide to the slider's width, at load and (debounced by
/// 100 ms, as Flickity does) on resize: measured and rewritten by `dppx rewrite`, every slide's
/// image gets `sizes="100vw"` (the sweep that measured every width in one call read them at
/// their load width everywhere), and Chromium at 1280 px fetches a file as wide as the slide.
@Suite("Layouts sized by script are measured after each resize (end to end, Chromium)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct ScriptSizedLayoutBrowserTests {
    struct Observation: Decodable {
        /// Per slide image: [box width, the width of the file shown].
        let slides: [[Double]]
    }

    static let widths = [480, 960, 1440, 1920]

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>
        body { margin: 0 }
        .slider { overflow: hidden }
        .track { display: flex }
        .slide img { display: block; width: 100%; height: auto }
        </style></head><body>
        <div class="slider"><div class="track">
        <div class="slide"><img src="img/one.jpg" alt="one"></div>
        <div class="slide"><img src="img/two.jpg" alt="two"></div>
        </div></div>
        <pre id="observation"></pre>
        <script>
        (function () {
          var slider = document.querySelector(".slider"), track = slider.querySelector(".track"), timer = null;
          function layout() {
            var width = slider.clientWidth;
            track.style.width = (width * track.children.length) + "px";
            for (var i = 0; i < track.children.length; i++) track.children[i].style.width = width + "px";
          }
          layout();
          window.addEventListener("resize", function () { clearTimeout(timer); timer = setTimeout(layout, 100); });
        })();
        addEventListener("load", () => {
          const slides = [...document.querySelectorAll(".slide img")].map(image => {
            const name = new URL(image.currentSrc).pathname.split("/").pop();
            const match = /-(\\d+)w\\./.exec(name);
            return [image.getBoundingClientRect().width, match ? Number(match[1]) : 2400];
          });
          document.getElementById("observation").textContent = JSON.stringify({ slides });
        });
        </script>
        </body></html>
        """

    @Test("each slide gets sizes=100vw and, at 1280 px, a file at least as wide as the slide")
    func slider() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["one.jpg": (2400, 1000), "two.jpg": (2400, 1000)], svg: false)
        try await scenario.build(into: "site/img", ["--widths", Self.widths.map(String.init).joined(separator: ",")])
        try scenario.write(Self.page, to: "site/index.html")
        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        let written = try #require(scenario.read("site/index.html"))
        // Why, if an image was left without candidates.
        let explained = written.contains(#"sizes="100vw""#) ? "" : "\(try await scenario.dppx("rewrite", "site/index.html", "--root", "site", "--explain"))"
        for name in ["one", "two"] {
            #expect(written.contains(#"<img src="img/\#(name).jpg" alt="\#(name)" srcset="img/\#(name)-480w.jpg 480w, "#)
                    && written.contains(#"2400w" sizes="100vw">"#), "\(name): \(written)\n\(rewrite.stderr)\n\(explained)")
        }

        // Recorded as sized by script, so checking it waits for its handler as measuring did.
        let layout = scenario.read("site/img/dppx-layout.json") ?? scenario.read("site/dppx-layout.json") ?? ""
        #expect(layout.contains(#""settled":true"#), "\(layout.prefix(400))")

        let server = try StaticServer(root: scenario.root)
        for viewport in [600, 1280] {
            let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: 1, windowSize: (viewport, 700))
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
            for slide in observation.slides {
                #expect(abs(slide[0] - Double(viewport)) < 1, "the slide is as wide as the window at \(viewport) px: \(observation)")
                let wanted = Self.widths.first { Double($0) >= slide[0] } ?? 2400
                #expect(slide[1] == Double(wanted), "the file as wide as the slide at \(viewport) px: \(observation)\n\(written)")
            }
        }
    }
}
