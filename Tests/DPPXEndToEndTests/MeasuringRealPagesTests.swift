import DPPXCore
import DPPXMeasure
import DPPXTestSupport
import Foundation
import Synchronization
import Testing

/// Pages as sites have them, measured in real Chromium: a third-party script that is not there
/// (its request fails at once, as with no network), a page whose load event never comes, pages
/// that cannot be measured (remembered in the layout file, so a second run with nothing changed
/// names them again without a browser), and a site linking its own stylesheet and images by
/// its absolute address (`[rewrite] base-url`).
@Suite("Measuring real pages (end to end, Chromium)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct MeasuringRealPagesTests {
    /// One browser for the suite's in-process measurements (it quits when the test process
    /// closes its end of the DevTools pipe).
    static let browser = SharedBrowser(executable: { () throws(MeasureError) in
        try Browser.find(explicit: Chromium.installed?.executable)
    })

    static let stylesheet = "body { margin: 0 } img { display: block } .half { width: 50% }\n"

    /// A site of `pages` with `css/site.css` and one 1200x800 image, `img/photo.jpg`, answered
    /// at its size.
    static func makeSite(_ pages: [String: String]) throws -> (ScratchFolder, SiteResponder) {
        let site = ScratchFolder("dppx-real-pages")
        try write(stylesheet, to: site("css/site.css"))
        for (name, text) in pages { try write(text, to: site(name)) }
        let responder = SiteResponder(root: site.path, imageSizes: ["img/photo.jpg": PixelSize(width: 1200, height: 800)],
                                      imageTagOffsets: { page in Self.imageTags(in: page) })
        return (site, responder)
    }

    static func write(_ text: String, to path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// The offsets of `<img` in `page` (the pages here write their tags plainly).
    static func imageTags(in page: [UInt8]) -> [Int] {
        let tag = Array("<img ".utf8)
        guard page.count >= tag.count else { return [] }
        return (0...(page.count - tag.count)).filter { Array(page[$0..<($0 + tag.count)]) == tag }
    }

    static func page(_ head: String, _ body: String) -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="css/site.css">\(head)</head>
        <body>\(body)</body></html>

        """
    }

    /// The measurement of `pages` of `responder`'s site, its layout file in the site's root.
    static func measurement(_ pages: [String], _ responder: SiteResponder, _ site: ScratchFolder) -> SiteMeasurement {
        var measurement = SiteMeasurement(pages: pages, responder: responder, output: site(LayoutFile.fileName))
        // Beside the other browser suites on 2 cores, a page can take a minute.
        measurement.timeout = .seconds(240)
        return measurement
    }

    /// The width of the first image of `page` at the 800 px viewport.
    static func width(_ outcome: SiteMeasurement.Outcome, _ page: String) -> Double? {
        outcome.layout.pages[page]?.images.first?.samples.first { $0.viewport == 800 }?.width
    }

    @Test("a page whose third-party map script is blocked and throws is measured as it stands, with a warning naming the error")
    func blockedThirdPartyScript() async throws {
        let (site, responder) = try Self.makeSite([
            "map.html": Self.page(#"<script src="https://maps.googleapis.com/maps/api/js?key=KEY"></script>"#, """
                <img class="half" src="img/photo.jpg" alt="a photo"><div id="map"></div>
                <script>var map = new google.maps.Map(document.getElementById('map'), {});</script>
                """),
        ])
        let outcome = try await Self.measurement(["map.html"], responder, site).run(in: Self.browser)
        #expect(outcome.failures.isEmpty && outcome.measured == ["map.html"], "\(outcome.failures)")
        #expect(Self.width(outcome, "map.html") == 400, "styled, the image at half the viewport: \(outcome.layout.pages)")
        let warnings = outcome.pageWarnings.map(\.description)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("map.html: measured as it stands after its scripts threw ReferenceError: google is not defined"),
                "\(warnings)")
    }

    @Test("a page whose load event never comes (a frame's document.open() never closed) is measured once quiet, with a warning, well within the timeout; its request to another origin failed at once, never answered, never pending")
    func loadNeverComes() async throws {
        // The image's width says how the fetch of another origin ended, before the page was
        // measured: 25% failed (as with no network), 75% answered (a 404 is an opaque answer
        // to a no-cors fetch), 50% (the stylesheet's) still pending.
        let (site, responder) = try Self.makeSite([
            "never.html": Self.page("", """
                <img id="photo" class="half" src="img/photo.jpg" alt="a photo">
                <iframe id="frame"></iframe>
                <script>
                fetch('https://cdn.example.com/data.json', { mode: 'no-cors' }).then(() => '75%', () => '25%')
                  .then((width) => { document.getElementById('photo').style.width = width; });
                const frame = document.getElementById('frame').contentDocument;
                frame.open();
                frame.write('<p>a document never closed: its frame, and the page, never finish loading');
                </script>
                """),
        ])
        let started = ContinuousClock.now
        let outcome = try await Self.measurement(["never.html"], responder, site).run(in: Self.browser)
        let elapsed = ContinuousClock.now - started
        #expect(outcome.failures.isEmpty && outcome.measured == ["never.html"], "\(outcome.failures)")
        #expect(elapsed < .seconds(60), "measured once quiet, not at the 240 s timeout: \(elapsed)")
        #expect(Self.width(outcome, "never.html") == 200, "the other origin's request failed before the page was measured: \(outcome.layout.pages)")
        let warnings = outcome.pageWarnings.map(\.description)
        #expect(warnings.count == 1 && warnings[0].hasPrefix("never.html: its load event never came")
                    && warnings[0].contains("measured as it stood once nothing had loaded or changed in it for 1 s"), "\(warnings)")
        #expect(outcome.layout.pages["never.html"]?.loadedElements != nil, "what the page held when measured stands for what it held at load")
    }

    @Test("pages that cannot be measured are recorded in the layout file: a second run with nothing changed names them again without starting a browser; a change measures the page again")
    func failuresRemembered() async throws {
        let (site, responder) = try Self.makeSite([
            "ok.html": Self.page("", #"<img class="half" src="img/photo.jpg" alt="a photo">"#),
            // Its only stylesheet of the site is missing: measured unstyled, every box would be another.
            "unstyled.html": """
                <!doctype html><html><head><link rel="stylesheet" href="css/theme.css"></head>
                <body><img class="half" src="img/photo.jpg" alt="a photo"></body></html>
                """,
            "bust.html": Self.page("<script>if (top !== self) top.location = self.location;</script>", #"<img class="half" src="img/photo.jpg" alt="a photo">"#),
        ])
        let pages = ["bust.html", "ok.html", "unstyled.html"]
        let first = try await Self.measurement(pages, responder, site).run(in: Self.browser)
        #expect(first.measured == ["ok.html"] && first.written, "\(first.failures)")
        #expect(first.failures.map(\.description).contains { $0.hasPrefix("unstyled.html: not measured: none of the stylesheets it links on the site loaded (css/theme.css: no such file under the root)") },
                "\(first.failures)")
        #expect(first.failures.map(\.description).contains { $0.hasPrefix("bust.html: not measured: it took over the window") }, "\(first.failures)")
        let layoutBytes = try Data(contentsOf: URL(fileURLWithPath: site(LayoutFile.fileName)))
        let recorded = SiteMeasurement.read(site(LayoutFile.fileName))
        #expect(recorded.failed["unstyled.html"]?.reason == .unstyled && recorded.failed["bust.html"]?.reason == .navigated, "\(recorded.failed)")
        #expect(recorded.failed["unstyled.html"]?.dependencies == ["unstyled.html", "css/", "img/photo.jpg"], "\(recorded.failed)")
        #expect(recorded.pages.keys.sorted() == ["ok.html"])

        // Nothing changed: no browser is asked for, the failures are told from the file.
        let asked = ManagedFlag()
        let second = try await Self.measurement(pages, responder, site).run(browser: { () throws(MeasureError) in
            asked.set()
            throw .noBrowser("no browser in the second run")
        })
        #expect(!asked.value, "no page needed a browser")
        #expect(second.unchanged == ["ok.html"] && second.measured.isEmpty && second.failedBefore.sorted() == ["bust.html", "unstyled.html"])
        #expect(second.failures.map(\.description).contains { $0.hasPrefix("unstyled.html: not measured: none of the stylesheets it links on the site loaded") && $0.contains("not loaded again") },
                "\(second.failures)")
        let secondBytes = try Data(contentsOf: URL(fileURLWithPath: site(LayoutFile.fileName)))
        #expect(!second.written && secondBytes == layoutBytes, "the layout file as it was")

        // The missing stylesheet appears: that page is measured again, the other still failed.
        try Self.write(Self.stylesheet, to: site("css/theme.css"))
        let third = try await Self.measurement(pages, responder, site).run(in: Self.browser)
        #expect(third.measured == ["unstyled.html"] && third.failedBefore == ["bust.html"], "\(third.failures)")
        #expect(Self.width(third, "unstyled.html") == 400, "\(third.layout.pages)")
        let after = SiteMeasurement.read(site(LayoutFile.fileName))
        #expect(after.failed.keys.sorted() == ["bust.html"] && after.pages.keys.sorted() == ["ok.html", "unstyled.html"])
    }

    @Test("a page that timed out is recorded with the timeout it outlasted: named again without a browser under the same timeout, measured again under a longer one")
    func timedOutRemembered() async throws {
        let (site, responder) = try Self.makeSite(["hang.html": "<!doctype html><script>while (true) {}</script>\n"])
        var measurement = Self.measurement(["hang.html"], responder, site)
        measurement.timeout = .seconds(2)
        let first = try await measurement.run(in: Self.browser)
        #expect(first.failures.map(\.description) == ["hang.html: not measured: it did not load and measure within 2 s (a script that never returns)"])
        let recorded = SiteMeasurement.read(site(LayoutFile.fileName)).failed["hang.html"]
        #expect(recorded?.reason == .timedOut && recorded?.seconds == 2, "\(String(describing: recorded))")

        let asked = ManagedFlag()
        let again = try await measurement.run(browser: { () throws(MeasureError) in
            asked.set()
            throw .noBrowser("no browser in the second run")
        })
        #expect(!asked.value && again.failedBefore == ["hang.html"], "\(again.failures)")
        #expect(again.failures.first?.description.contains("within 2 s (a script that never returns), when it was last measured") == true, "\(again.failures)")

        measurement.timeout = .seconds(3)
        let longer = try await measurement.run(in: Self.browser)
        #expect(longer.failedBefore.isEmpty && longer.failures.map(\.description) == ["hang.html: not measured: it did not load and measure within 3 s (a script that never returns)"])
        #expect(SiteMeasurement.read(site(LayoutFile.fileName)).failed["hang.html"]?.seconds == 3)
    }

    @Test("a rewritten page that then fails is left as it was and keeps the record of the sizes dppx wrote on it: measured again, they are still dppx's")
    func failedPageKeepsItsSizes() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: [:], svg: false)
        try TestImages.write(scenario.scratch("src/photo.jpg"), width: 1600, height: 1000, bands: 3)
        try scenario.write("""
            [build]
            source = "src"
            out = "site/img"
            [rewrite]
            root = "site"
            pages = ["site/index.html"]
            """, to: "dppx.toml")
        let stylesheet = "body { margin: 0 } main { max-width: 600px; margin: 0 auto } main img { display: block; width: 100%; height: auto }\n"
        try scenario.write(stylesheet, to: "site/css/site.css")
        try scenario.write("""
            <!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="css/site.css"></head>
            <body><main><img src="img/photo.jpg" alt="a photo"></main></body></html>

            """, to: "site/index.html")
        let layoutPath = scenario.scratch("site/img/dppx-layout.json")
        let first = try await scenario.dppx("build", "--browser", chromium.executable)
        #expect(first.status == 0, "\(first)")
        let written = try #require(SiteMeasurement.read(layoutPath).pages["index.html"]?.sizesWritten)
        #expect(written.count == 1, "\(first)")
        let rewritten = scenario.read("site/index.html")

        try FileManager.default.removeItem(atPath: scenario.scratch("site/css/site.css"))
        let failing = try await scenario.dppx("build", "--browser", chromium.executable)
        #expect(failing.status == 1 && failing.stderr.contains("index.html: not measured: none of the stylesheets it links on the site loaded"), "\(failing)")
        #expect(scenario.read("site/index.html") == rewritten, "left as it was")
        #expect(SiteMeasurement.read(layoutPath).failed["index.html"]?.sizesWritten == written)

        try scenario.write(stylesheet, to: "site/css/site.css")
        let again = try await scenario.dppx("build", "--browser", chromium.executable)
        #expect(again.status == 0, "\(again)")
        #expect(SiteMeasurement.read(layoutPath).pages["index.html"]?.sizesWritten == written, "the sizes dppx wrote are still dppx's")
        #expect(scenario.read("site/index.html") == rewritten)
    }

    @Test("a site linking its stylesheet and images by its absolute address ([rewrite] base-url) is measured styled, the images at their boxes: the sizes written are right")
    func absoluteURLsOfTheSite() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: [:], svg: false)
        try TestImages.write(scenario.scratch("src/photo.jpg"), width: 1600, height: 1000, bands: 3)
        try scenario.write("""
            [build]
            source = "src"
            out = "site/img"
            [rewrite]
            root = "site"
            base-url = "https://example.com/"
            pages = ["site/index.html"]
            """, to: "dppx.toml")
        try scenario.write("body { margin: 0 } main { max-width: 600px; margin: 0 auto } main img { display: block; width: 100%; height: auto }\n",
                           to: "site/css/site.css")
        try scenario.write("""
            <!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="https://example.com/css/site.css"></head>
            <body><main><img src="https://example.com/img/photo.jpg" alt="a photo of the sea at dawn"></main></body></html>

            """, to: "site/index.html")
        let build = try await scenario.dppx("build", "--browser", chromium.executable)
        #expect(build.status == 0, "\(build)")
        #expect(!build.stderr.contains("not measured") && !build.stderr.contains("measured without its stylesheets"), "\(build)")
        let page = try #require(scenario.read("site/index.html"))
        #expect(page.contains(#"sizes="(max-width: 600.98px) 100vw, 600px""#), "the box of the styled page, not the alt text's: \(page)")
        let layout = try #require(SiteMeasurement.read(scenario.scratch("site/img/dppx-layout.json")).pages["index.html"])
        #expect(layout.dependencies.contains("css/site.css"), "the stylesheet was answered from the root: \(layout.dependencies)")
        let boxes = layout.images.first?.samples.filter { [320, 800].contains($0.viewport) }.map { [$0.width, $0.height] }
        #expect(boxes == [[320, 200], [600, 375]], "\(layout.images)")
    }
}

/// A flag set from a `@Sendable` closure and read after it ran.
final class ManagedFlag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var value: Bool { state.withLock { $0 } }
}
