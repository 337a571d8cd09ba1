import DPPXCore
import DPPXMeasure
import DPPXRewrite
import DPPXTestSupport
import Foundation
import Testing

/// A hero whose rule paints one fluid image and, in an `@media` block nested in it, another on
/// phones (`.hero { background: url(hero.jpg) ...; @media (max-width: 600px) { background-image:
/// url(mobile.jpg) } }`): measured in Chromium, its stylesheet rewritten from the layout, then
/// loaded again. Each image's blocks win exactly where its declaration did: at 390 px the page
/// fetches a file of the mobile image, at 1280 px one of the hero, each as wide as it is painted.
/// And a vendor stack (`-webkit-linear-gradient(top, ...), url(hero.jpg)` then the unprefixed
/// `linear-gradient(top, ...)`, which is invalid): the blocks copy the declaration the browser
/// kept, so they apply, and the page fetches a measured width, not the master.
@Suite("Measured nested CSS backgrounds and vendor stacks (end to end, Chromium)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct MeasuredNestedBackgroundTests {
    struct Observation: Decodable {
        let fetched: [String]
        /// The hero's [width, height], CSS px.
        let hero: [Double]
    }

    static let ladder = [480, 800, 1200, 1600, 2000]
    static let master = 2400

    static let stylesheet = """
        body { margin: 0; }
        .hero {
          height: 400px;
          background: url(../img/hero.jpg) center / cover no-repeat;
          @media (max-width:600px) {
            background-image: url(../img/mobile.jpg);
          }
        }

        """

    static let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><link rel="stylesheet" href="css/site.css"></head><body>
        <section id="hero" class="hero"></section>
        <pre id="observation"></pre>
        <script>
        let attempts = 0;
        function report() {
          const fetched = performance.getEntriesByType("resource").map(entry => new URL(entry.name).pathname).filter(path => path.startsWith("/site/img/"));
          const rect = document.getElementById("hero").getBoundingClientRect();
          document.getElementById("observation").textContent = JSON.stringify({ fetched, hero: [rect.width, rect.height] });
        }
        function settle() {
          const done = performance.getEntriesByType("resource").some(entry => entry.name.includes("/site/img/"));
          if (done || ++attempts > 200) setTimeout(report, 300); else setTimeout(settle, 25);
        }
        addEventListener("load", settle);
        </script>
        </body></html>
        """

    static let vendorStack = """
        body { margin: 0; }
        .hero {
          height: 400px;
          background-image: -webkit-linear-gradient(top, rgba(0, 0, 0, .4), rgba(0, 0, 0, .4)), url(../img/hero.jpg);
          background-image: linear-gradient(top, rgba(0, 0, 0, .4), rgba(0, 0, 0, .4)), url(../img/hero.jpg);
          background-size: cover;
          background-position: center;
        }

        """

    func observe(_ chromium: Chromium, _ server: StaticServer, viewport: Int, dpr: Double) async throws -> Observation {
        let dom = try await chromium.dumpDOM(of: server.url("site/index.html"), deviceScaleFactor: dpr, windowSize: (viewport, 800))
        let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
        return try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
    }

    @Test("the nested declaration's blocks win where it did: a mobile file at 390 px, a hero file at 1280 px, each as wide as painted")
    func nestedMediaBlock() async throws {
        let (rewritten, layers, server, chromium, scenario) = try await measureAndRewrite(Self.stylesheet)
        defer { withExtendedLifetime(scenario) {} }
        #expect(Set(layers.map { "\($0.url) \($0.nested ?? [])" }) == ["/img/hero.jpg []", "/img/mobile.jpg [\"@media (max-width: 600px)\"]"],
                "\(layers)")
        for (viewport, dpr, image) in [(390, 2.0, "mobile"), (390, 1.0, "mobile"), (1280, 1.0, "hero"), (1280, 2.0, "hero")] {
            try await expectFetched(image, chromium, server, viewport: viewport, dpr: dpr, rewritten)
        }
    }

    @Test("of a vendor stack the blocks copy the declaration the browser kept: they apply, and a measured width is fetched")
    func vendorStack() async throws {
        let (rewritten, layers, server, chromium, scenario) = try await measureAndRewrite(Self.vendorStack)
        defer { withExtendedLifetime(scenario) {} }
        #expect(layers.allSatisfy { $0.images == ["-webkit-linear-gradient", "url"] }, "\(layers)")
        #expect(rewritten.contains("@media") && !rewritten.contains("background-image: linear-gradient(top, rgba(0, 0, 0, .4), rgba(0, 0, 0, .4)), image-set("),
                "\(rewritten)")
        for (viewport, dpr) in [(390, 2.0), (1280, 1.0)] {
            try await expectFetched("hero", chromium, server, viewport: viewport, dpr: dpr, rewritten)
        }
    }

    /// Builds hero.jpg and mobile.jpg, measures the page with `stylesheet` and writes the
    /// stylesheet rewritten from the layout: the rewritten text, the layers measured, the server
    /// and the scenario (its folder lives as long as it does).
    func measureAndRewrite(_ stylesheet: String) async throws -> (String, [LayoutFile.Background], StaticServer, Chromium, RenderScenario) {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: ["hero.jpg": (Self.master, 1200), "mobile.jpg": (Self.master, 1200)], svg: false)
        try await scenario.build(into: "site/img", ["--widths", Self.ladder.map(String.init).joined(separator: ",")])
        try scenario.write(stylesheet, to: "site/css/site.css")
        try scenario.write(Self.page, to: "site/index.html")
        let server = try StaticServer(root: scenario.root)

        let site = scenario.root + "/site"
        let measured = try await MeasuredStylesheet(site: site, stylesheet: stylesheet, chromium: chromium)
        let rewritten = measured.text
        #expect(measured.findings.isEmpty, "\(measured.findings)")
        try scenario.write(rewritten, to: "site/css/site.css")
        // Measured again, the rewritten site is the untouched one (its blocks dropped, the
        // nested ones too): the same declarations paint, and a rewrite from them changes nothing.
        let again = try await MeasuredStylesheet(site: site, stylesheet: rewritten, output: LayoutFile.fileName + ".again", chromium: chromium)
        func declarations(_ layout: LayoutFile) -> Set<String> {
            Set(layout.pages.values.flatMap(\.backgrounds).map { "\($0.url) \($0.sheet ?? "") \($0.selector ?? "") \($0.nested ?? []) \($0.images ?? [])" })
        }
        #expect(declarations(again.layout) == declarations(measured.layout), "\(again.layout)")
        #expect(again.text == rewritten)
        return (rewritten, measured.layout.pages.values.flatMap(\.backgrounds), server, chromium, scenario)
    }

    /// The page at `viewport` and `dpr` fetches one file of `image`: the narrowest of the ladder
    /// at least as wide as the hero is painted there (cover over a 400 px high box of a 2:1
    /// image: as wide as the box, or twice its height), the master when none is.
    func expectFetched(_ image: String, _ chromium: Chromium, _ server: StaticServer, viewport: Int, dpr: Double, _ rewritten: String) async throws {
        let after = try await observe(chromium, server, viewport: viewport, dpr: dpr)
        let context = "at \(viewport) px, DPR \(dpr): \(after)\n\(rewritten)"
        let painted = max(after.hero[0], after.hero[1] * 2)
        let wanted = Self.ladder.first { Double($0) >= painted * dpr - 0.01 }.map { "/site/img/\(image)-\($0)w.jpg" } ?? "/site/img/\(image).jpg"
        #expect(after.fetched == [wanted], "one file of \(image).jpg, as wide as painted \(context)")
    }
}
