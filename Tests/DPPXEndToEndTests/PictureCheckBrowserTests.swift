import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `--picture` on measured pages, image by image: a `<picture>` wrapper is kept where the
/// image's computed style, its parent's and its box are the same with it as without it at every
/// checked width, and left off (the image written with `srcset` only, named with the property
/// that changed) where a `.card > img` rule or an `img:first-child` rule stops matching, or a
/// script of the page selects the image by `.gallery > img`. The rest of the page is written.
/// Chromium and Firefox then lay the page out box for box as the untouched one at DPR 1 and 2,
/// keep every image's `border-radius`, and fetch the AVIF file of each wrapped image.
@Suite("--picture where it is harmless, per image (end to end, Chromium and Firefox)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct PictureCheckBrowserTests {
    struct Observation: Decodable {
        struct Image: Decodable {
            /// [left, top, width, height], CSS px, from the document's origin.
            let box: [Double]
            /// The path of `currentSrc`.
            let src: String
            /// The computed `border-top-left-radius`.
            let radius: String
            /// Whether its parent is a `<picture>`.
            let wrapped: Bool
        }
        let run: String
        let images: [String: Image]
    }

    /// Writes what the page laid out once every `<img>` loaded, to its own DOM (Chromium) and to
    /// the collector in `?collector=` (Firefox), from the last image's load event, which holds
    /// the page's.
    static let script = """
        <pre id="observation"></pre>
        <script>
        (() => {
          const params = new URLSearchParams(location.search);
          const images = [...document.querySelectorAll("img[id]")];
          let settled = 0;
          function send() {
            const report = {};
            for (const image of images) {
              const r = image.getBoundingClientRect();
              report[image.id] = { box: [r.left + scrollX, r.top + scrollY, r.width, r.height],
                                   src: new URL(image.currentSrc, location.href).pathname,
                                   radius: getComputedStyle(image).borderTopLeftRadius,
                                   wrapped: image.parentElement.localName === "picture" };
            }
            const text = JSON.stringify({ run: params.get("run") || "", images: report });
            document.getElementById("observation").textContent = text;
            if (params.get("collector")) {
              const beacon = new Image();
              beacon.src = params.get("collector") + "/report?" + encodeURIComponent("run=" + params.get("run") + " " + text);
              document.body.appendChild(beacon);
            }
          }
          function settle() { if (++settled === images.length) send(); }
          for (const image of images) {
            if (image.complete && image.currentSrc) settle(); else { image.addEventListener("load", settle); image.addEventListener("error", settle); }
          }
        })();
        </script>
        """

    /// `c` is styled by `.card > img` (its width, height and object-fit), `s` by
    /// `.strip img:first-child` (a border radius, no box), `g` is selected by the page's script as
    /// `.gallery > img`; `t` (second in the strip) and `p` are styled by nothing a wrapper
    /// changes.
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><style>
        body { margin: 0 } img { display: block; width: 300px; height: 200px }
        .card { width: 320px } .card > img { width: 100%; height: auto; object-fit: cover }
        .strip img:first-child { border-radius: 50% }
        </style></head><body>
        <div class="card">
        <img id="c" src="img/a.jpg" alt="c">
        </div>
        <div class="strip">
        <img id="s" src="img/a.jpg" alt="s">
        <img id="t" src="img/b.jpg" alt="t">
        </div>
        <div class="plain">
        <img id="p" src="img/b.jpg" alt="p">
        </div>
        <div class="gallery">
        <img id="g" src="img/b.jpg" alt="g">
        </div>
        <script>document.querySelectorAll(".gallery > img").forEach((image) => image.classList.add("seen"));</script>
        \(script)
        </body></html>

        """

    @Test("<picture> kept where harmless, left off with the property or selector where `.card > img`, `:first-child` or a script's `.gallery > img` stops matching; Chromium and Firefox at DPR 1 and 2 lay the page out as before and fetch AVIF for the wrapped images")
    func perImage() async throws {
        let chromium = try #require(Chromium.installed)
        var scenario = try RenderScenario(masters: [:], svg: false)
        // Smooth gradients, so the AVIF files are smaller than the JPEGs and kept.
        let gradient = (0..<(900 * 600)).flatMap { index -> [UInt8] in
            let (x, y) = (index % 900, index / 900)
            return [UInt8(x * 200 / 900 + 20), UInt8(y * 200 / 600 + 20), 120]
        }
        for name in ["a.jpg", "b.jpg"] {
            try TestImages.writePixels(gradient, width: 900, height: 600, bands: 3, to: scenario.scratch("src/" + name))
        }
        try scenario.write("""
            [build]
            source = "src"
            out = "site/img"
            formats = ["avif"]
            [rewrite]
            root = "site"
            """, to: "dppx.toml")
        scenario.environment[SettingRegistry.browserVariable] = chromium.executable
        try scenario.write(Self.page, to: "site/index.html")
        try scenario.write(Self.page, to: "site/untouched.html")
        let build = try await scenario.dppx("build")
        #expect(build.status == 0, "\(build)")
        #expect(FileManager.default.fileExists(atPath: scenario.scratch("site/img/a.avif")), "\(build)")

        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--picture")
        #expect(rewrite.status == 0, "\(rewrite)")
        #expect(rewrite.stdout.contains("checked 1 rewritten page (0 left as they were)"), "\(rewrite)")
        #expect(DeployableSite.missingFiles(under: scenario.scratch("site")) == [], "the page names files that are there")
        let written = try #require(scenario.read("site/index.html"))
        let lines = written.split(separator: "\n", omittingEmptySubsequences: false)
        func line(of id: String) -> (number: Int, text: String) {
            let index = lines.firstIndex { $0.contains("id=\"\(id)\"") } ?? 0
            return (index + 1, String(lines[index]))
        }
        for id in ["t", "p"] {
            #expect(line(of: id).text.hasPrefix("<picture><source type=\"image/avif\""), "\(id) is wrapped:\n\(written)")
        }
        for id in ["c", "s", "g"] {
            #expect(line(of: id).text.hasPrefix("<img id=\"\(id)\"") && line(of: id).text.contains("srcset="), "\(id) has a srcset only:\n\(written)")
        }
        let report = rewrite.stderr
        #expect(report.contains("index.html:\(line(of: "c").number): <img src=\"img/a.jpg\">: written without <picture>: its computed `height`, `object-fit` and `width` changed at a 320 px viewport (`.card > img` no longer matches)"), "\(rewrite)")
        #expect(report.contains("index.html:\(line(of: "s").number): <img src=\"img/a.jpg\">: written without <picture>: its computed `border-bottom-left-radius`, `border-bottom-right-radius`, `border-top-left-radius` and `border-top-right-radius` changed at a 320 px viewport (`.strip img:first-child` no longer matches)"), "\(rewrite)")
        #expect(report.contains("index.html:\(line(of: "g").number): <img src=\"img/b.jpg\">: written without <picture>: a script of the page selects it by its place among its parent's children (`.gallery > img` in index.html)"), "\(rewrite)")
        #expect(!report.contains("index.html:\(line(of: "t").number):") && !report.contains("index.html:\(line(of: "p").number):"), "\(rewrite)")

        // A second run with nothing changed measures nothing and writes nothing.
        try scenario.age("site/index.html")
        let modified = scenario.modificationDate("site/index.html")
        let layout = try #require(scenario.read("site/img/dppx-layout.json"))
        #expect(layout.contains("\"unwrapped\""), "\(layout)")
        let again = try await scenario.dppx("rewrite", "site/index.html", "--picture")
        #expect(again.status == 0, "\(again)")
        #expect(again.stdout.contains("measured 0 pages (1 unchanged since the last run)"), "\(again)")
        #expect(scenario.read("site/index.html") == written && scenario.modificationDate("site/index.html") == modified, "the page is not written again")
        #expect(scenario.read("site/img/dppx-layout.json") == layout, "the layout file is the same bytes")

        // Without measuring, --picture wraps every image, unchecked, and says so in one line.
        try scenario.write(Self.page, to: "site/unmeasured.html")
        let unmeasured = try await scenario.dppx("rewrite", "site/unmeasured.html", "--picture", "--no-measure")
        #expect(unmeasured.stdout.split(separator: "\n").filter { $0.contains("<picture> wrappers not checked") }.count == 1, "\(unmeasured)")

        // The rewritten page beside the untouched one, in both engines at DPR 1 and 2.
        let server = try StaticServer(root: scenario.root)
        func compare(_ rewritten: Observation, _ untouched: Observation, context: String) {
            #expect(Set(rewritten.images.keys) == ["c", "s", "t", "p", "g"], "\(context): \(rewritten)")
            for (id, image) in rewritten.images {
                guard let before = untouched.images[id] else { continue }
                let moved = zip(image.box, before.box).contains { abs($0 - $1) > 0.5 }
                #expect(!moved, "\(id) is drawn at \(image.box), \(before.box) untouched (\(context))")
                #expect(image.radius == before.radius, "\(id)'s border radius is \(image.radius), \(before.radius) untouched (\(context))")
                #expect(image.wrapped == ["t", "p"].contains(id), "\(id) \(image.wrapped ? "is" : "is not") in a <picture> (\(context))")
                if image.wrapped {
                    #expect(image.src.hasSuffix(".avif"), "\(id) fetched \(image.src) (\(context))")
                } else {
                    #expect(image.src.hasSuffix(".jpg") && before.src == "/site/img/\(id == "c" || id == "s" ? "a" : "b").jpg", "\(id): \(image.src) (\(context))")
                }
            }
        }
        for dpr in [1.0, 2.0] {
            var seen: [String: Observation] = [:]
            for name in ["index", "untouched"] {
                let dom = try await chromium.dumpDOM(of: server.url("site/\(name).html"), deviceScaleFactor: dpr, windowSize: (800, 800))
                let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
                seen[name] = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
            }
            compare(try #require(seen["index"]), try #require(seen["untouched"]), context: "Chromium, DPR \(dpr)")
        }
        guard let firefox = Firefox.installed else { return }
        let collector = try ReportCollector()
        for dpr in [1.0, 2.0] {
            let profile = try Firefox.Profile(devicePixelRatio: dpr)
            var seen: [String: Observation] = [:]
            for name in ["index", "untouched"] {
                let run = "\(name)-\(dpr)"
                try await firefox.load(server.url("site/\(name).html?run=\(run)&collector=\(collector.origin)"), in: profile, windowSize: (800, 800))
                seen[name] = try await collector.observation(of: run, as: Observation.self)
            }
            compare(try #require(seen["index"]), try #require(seen["untouched"]), context: "Firefox, DPR \(dpr)")
        }
    }
}
