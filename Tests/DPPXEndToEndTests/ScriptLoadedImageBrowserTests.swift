import DPPXTestSupport
import Foundation
import Testing

/// A page whose lazy-loading script (in the way of lazysizes: `class="lazyload"`, a small
/// preview in `src`, the real image in `data-src`) swaps each image in once the page has
/// loaded. Measured and rewritten by `dppx rewrite`, the page still shows the real image in
/// Chromium at DPR 1 and 2: dppx leaves the script's images as they are and says why, and
/// rewrites a plain `<img>` beside them.
@Suite("Images a lazy-loading script sets still show after dppx rewrite (end to end, Chromium)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct ScriptLoadedImageBrowserTests {
    struct Observation: Decodable {
        /// Image id -> the path it shows.
        let shown: [String: String]
    }

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>body { margin: 0 } img { display: block; width: 400px; height: auto }</style></head><body>
        <img id="lazy" class="lazyload" src="img/preview.jpg" data-src="img/photo.jpg" alt="">
        <img id="plain" src="img/photo.jpg" alt="">
        <pre id="observation"></pre>
        <script>
        // What lazysizes does for an image in view: its real source from data-src.
        addEventListener("load", () => {
          for (const image of document.querySelectorAll("img.lazyload[data-src]")) {
            image.src = image.dataset.src;
            image.classList.replace("lazyload", "lazyloaded");
          }
          const lazy = document.getElementById("lazy");
          const report = () => {
            const shown = {};
            for (const image of document.images) shown[image.id] = new URL(image.currentSrc, location.href).pathname;
            document.getElementById("observation").textContent = JSON.stringify({ shown });
          };
          if (lazy.complete) report(); else { lazy.addEventListener("load", report); lazy.addEventListener("error", report); }
        });
        </script>
        </body></html>
        """

    @Test("the lazily set image shows its real file, not a candidate of its preview; the page's plain image gets a srcset")
    func realImageShows() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["photo@2x.jpg": (1600, 1000), "preview@2x.jpg": (80, 50)], svg: false)
        try await scenario.build(into: "site/img")
        try scenario.write(Self.page, to: "site/index.html")
        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        #expect(rewrite.stderr.contains("a lazy-loading script sets its image from data-src"), "\(rewrite)")
        let written = try #require(scenario.read("site/index.html"))
        #expect(written.contains(#"<img id="lazy" class="lazyload" src="img/preview.jpg" data-src="img/photo.jpg" alt="">"#), "\(written)")
        #expect(written.contains(#"<img id="plain" src="img/photo.jpg" alt="" srcset="#), "\(written)")

        let server = try StaticServer(root: scenario.root)
        for dpr in [1.0, 2.0] {
            let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: dpr, windowSize: (800, 600))
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
            #expect(observation.shown["lazy"] == "/site/img/photo.jpg", "at DPR \(dpr): \(observation.shown)")
            let plain = try #require(observation.shown["plain"])
            #expect(plain == (dpr == 1 ? "/site/img/photo.jpg" : "/site/img/photo@2x.jpg"), "at DPR \(dpr): \(observation.shown)")
        }
    }
}
