import DPPXCore
import DPPXMeasure
import DPPXRewrite
import DPPXTestSupport
import Foundation
import Testing

/// A `cover` hero under a gradient, as in `MeasuredBackgroundBrowserTests` but 3:1 (its height
/// follows its width, not the window's: the two browsers' windows differ in height), built with
/// AVIF and WebP too: every
/// `image-set()` the measured blocks write lists its AVIF candidates first, then WebP, then the
/// master's format, and Chromium and Firefox, which both decode AVIF, each fetch the hero's
/// AVIF file, as wide as it is painted, at 500 and 1280 px and DPR 1 and 2.
@Suite("Measured CSS backgrounds in AVIF and WebP (end to end, Chromium and Firefox)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct MeasuredBackgroundFormatTests {
    struct Observation: Decodable {
        let run: String
        /// The hero files the page fetched, as paths.
        let fetched: [String]
        /// The hero's [width, height], CSS px.
        let hero: [Double]
    }

    static let stylesheet = """
        body { margin: 0; }
        .hero {
          aspect-ratio: 3 / 1;
          background: linear-gradient(rgba(0, 0, 0, .4), rgba(0, 0, 0, .4)), url(../img/hero.jpg) center / cover no-repeat;
        }
        .text { width: 50%; height: 40px; margin: 10px auto; }

        """

    /// Reports the hero files fetched once one is, to the page's own DOM (Chromium) or to the
    /// collector in `?collector=` (Firefox, which cannot dump its DOM; the report's image holds
    /// the page's load event, so it is sent before Firefox's `--screenshot` run ends).
    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><link rel="stylesheet" href="css/site.css"></head><body>
        <section id="hero" class="hero"></section>
        <div id="text" class="text"></div>
        <pre id="observation"></pre>
        <script>
        const params = new URLSearchParams(location.search);
        let attempts = 0;
        function report() {
          const fetched = performance.getEntriesByType("resource").map(entry => new URL(entry.name).pathname).filter(path => path.startsWith("/site/img/"));
          const rect = document.getElementById("hero").getBoundingClientRect();
          const text = JSON.stringify({ run: params.get("run") || "", fetched, hero: [rect.width, rect.height] });
          document.getElementById("observation").textContent = text;
          if (params.get("collector")) {
            const image = new Image();
            image.src = params.get("collector") + "/report?" + encodeURIComponent("run=" + params.get("run") + " " + text);
            document.body.appendChild(image);
          }
        }
        function settle() {
          const done = performance.getEntriesByType("resource").some(entry => entry.name.includes("/img/hero") && entry.responseEnd > 0);
          if (done || ++attempts > 400) report(); else setTimeout(settle, 10);
        }
        settle();
        </script>
        </body></html>
        """

    /// Each `image-set(...)` of `css`, as the list of its candidates' types in order (`avif`,
    /// `webp`, `-` for a candidate without `type()`).
    static func candidateTypes(in css: String) -> [[String]] {
        var sets: [[String]] = []
        var rest = Substring(css)
        while let start = rest.range(of: "image-set(") {
            var depth = 1, index = start.upperBound
            while index < rest.endIndex, depth > 0 {
                if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            let body = rest[start.upperBound..<rest.index(before: index)]
            sets.append(body.split(separator: ",").map { candidate in
                if candidate.contains("image/avif") { return "avif" }
                if candidate.contains("image/webp") { return "webp" }
                return "-"
            })
            rest = rest[index...]
        }
        return sets
    }

    @Test("the measured blocks list AVIF, then WebP, then JPEG; Chromium and Firefox each fetch the hero's AVIF, as wide as it is painted")
    func avifFirst() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["hero.jpg": (MeasuredBackgroundBrowserTests.master, 1200)], svg: false)
        let ladder = MeasuredBackgroundBrowserTests.ladder
        let built = try await scenario.build(into: "site/img", ["--widths", ladder.map(String.init).joined(separator: ","), "--formats", "avif,webp"])
        #expect(built.status == 0, "\(built)")
        try scenario.write(Self.stylesheet, to: "site/css/site.css")
        try scenario.write(Self.page, to: "site/index.html")
        let server = try StaticServer(root: scenario.root)

        // Measured, and the stylesheet rewritten from the layout.
        let result = try await MeasuredStylesheet(site: scenario.root + "/site", stylesheet: Self.stylesheet, chromium: chromium)
        let rewritten = result.text
        #expect(result.findings.isEmpty, "\(result.findings)")
        #expect(rewritten.contains("@media"), "\(rewritten)")
        try scenario.write(rewritten, to: "site/css/site.css")

        // In each image-set: every AVIF candidate, then every WebP one, then the JPEG ones.
        let sets = Self.candidateTypes(in: rewritten)
        #expect(!sets.isEmpty, "\(rewritten)")
        for types in sets {
            let rank = types.map { ["avif": 0, "webp": 1, "-": 2][$0] ?? 3 }
            #expect(rank == rank.sorted() && Set(types) == ["avif", "webp", "-"], "the order of \(types) in\n\(rewritten)")
            #expect(types.filter { $0 == "avif" }.count == types.filter { $0 == "-" }.count, "one AVIF file for each JPEG: \(types)")
        }

        // Cover over a 3:1 box of a 2:1 image: as wide as the box.
        func check(_ observation: Observation, engine: String, viewport: Int, dpr: Double) {
            let context = "\(engine) at \(viewport) px, DPR \(dpr): \(observation)\n\(rewritten)"
            let painted = max(observation.hero[0], observation.hero[1] * 2)
            let wanted = ladder.first { Double($0) >= painted * dpr } ?? MeasuredBackgroundBrowserTests.master
            #expect(observation.fetched.count == 1, "one file \(context)")
            #expect(observation.fetched.allSatisfy { $0.hasSuffix(".avif") }, "the AVIF file \(context)")
            #expect(observation.fetched.map(MeasuredBackgroundBrowserTests.width) == [wanted], "as wide as painted \(context)")
        }
        let cases = [(500, 1.0), (500, 2.0), (1280, 1.0), (1280, 2.0)]
        for (viewport, dpr) in cases {
            let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: dpr, windowSize: (viewport, 800))
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            check(try JSONDecoder().decode(Observation.self, from: Data(json.utf8)), engine: "Chromium", viewport: viewport, dpr: dpr)
        }
        guard let firefox = Firefox.installed else { return }
        let collector = try ReportCollector()
        for (viewport, dpr) in cases {
            let profile = try Firefox.Profile(devicePixelRatio: dpr)
            let run = "\(viewport)-\(dpr)"
            try await firefox.load(server.url("site/index.html?run=\(run)&collector=\(collector.origin)"), in: profile,
                                   windowSize: (viewport, 800))
            check(try await collector.observation(of: run, as: Observation.self), engine: "Firefox", viewport: viewport, dpr: dpr)
        }
    }
}
