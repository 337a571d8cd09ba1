import DPPXCore
import DPPXMeasure
import Foundation
import Testing

/// Each background layer names the declaration that paints it, as the cascade chose it in real
/// headless Chromium: the stylesheet (the page for a `<style>` element or a `style` attribute)
/// and the style rule's selector, at each viewport the rule that wins there. A rewritten
/// stylesheet is measured as the untouched one.
@Suite("Background sources (Chromium)", .serialized, .enabled(if: (try? Browser.find(explicit: nil)) != nil, "Chromium is not installed"))
struct BackgroundSourceBrowserTests {
    static let stylesheet = """
        .a { background: url(../img/photo.jpg) center / cover; }
        @media (max-width: 599.98px) { .a { background-image: image-set(url("../img/photo-480w.jpg") 1x); } }
        @media (min-width: 600px) { .a { background-image: image-set(url("../img/photo.jpg") 1x); } }
        @media (min-width: 700px) {
          .b { background-image: linear-gradient(red, red), url("../img/photo.jpg"); }
        }
        .m { background: url(../img/photo.jpg); }
        @media (min-width: 900px) { div.m { background-image: url(../img/photo.jpg); background-size: cover; } }
        .imp { background-image: url(../img/photo.jpg) !important; }
        """

    static let page = """
        <!doctype html>
        <html><head>
        <style>
        div { height: 50px; }
        .s { background: url(img/photo.jpg) center / contain no-repeat; }
        #w { background-image: url(img/photo.jpg); }
        </style>
        <link rel="stylesheet" href="css/site.css">
        </head><body>
        <div id="a" class="a"></div>
        <div id="b" class="b"></div>
        <div id="s" class="s"></div>
        <div id="i" style="background-image: url(img/photo.jpg)"></div>
        <div id="w" class="a"></div>
        <div id="m" class="m"></div>
        <div id="imp" class="imp" style="background-image: url(img/photo.jpg)"></div>
        </body></html>
        """

    @Test("a stylesheet rule, a rule in @media, a <style> rule, a style attribute, specificity, !important, and a rule that wins only at some widths")
    func sources() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-sources-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try Self.stylesheet.write(toFile: root + "/css/site.css", atomically: true, encoding: .utf8)
        try Self.page.write(toFile: root + "/index.html", atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let responder = SiteResponder(root: root, imageSizes: ["img/photo.jpg": PixelSize(width: 1200, height: 800)], imageTagOffsets: { _ in [] })
        var measurement = SiteMeasurement(pages: ["index.html"], responder: responder, output: root + "/" + LayoutFile.fileName)
        // Beside the other browser suites on 2 cores, a page can take a minute.
        measurement.timeout = .seconds(240)
        let outcome = try await measurement.run { () throws(MeasureError) in try Browser.find(explicit: nil) }
        #expect(outcome.failures.isEmpty, "\(outcome.failures)")
        let backgrounds = try #require(outcome.layout.pages["index.html"]).backgrounds

        func source(_ id: String) -> [String] {
            backgrounds.filter { $0.element == "#" + id }.map { "\($0.layer) \($0.sheet ?? "-") \($0.selector ?? "-")" }
        }
        #expect(source("a") == ["0 css/site.css .a"], "the @media blocks a rewrite wrote after the rule are not measured")
        #expect(backgrounds.first { $0.element == "#a" }?.url == "/img/photo.jpg")
        #expect(source("b") == ["1 css/site.css .b"])
        #expect(backgrounds.first { $0.element == "#b" }?.samples.allSatisfy { $0.viewport >= 700 } == true, "painted from 700 px only")
        #expect(source("s") == ["0 index.html .s"])
        #expect(source("i") == ["0 index.html -"])
        #expect(source("w") == ["0 index.html #w"], "an id beats a class written later")
        #expect(source("imp") == ["0 css/site.css .imp"], "!important beats the style attribute")
        #expect(Set(source("m")) == ["0 css/site.css .m", "0 css/site.css div.m"])
        let narrow = backgrounds.first { $0.element == "#m" && $0.selector == ".m" }
        let wide = backgrounds.first { $0.element == "#m" && $0.selector == "div.m" }
        #expect(narrow?.samples.map(\.viewport).max() == 899 && wide?.samples.map(\.viewport).min() == 900,
                "the change of rule is pinned to 1 px: \(narrow?.samples.map(\.viewport) ?? []) \(wide?.samples.map(\.viewport) ?? [])")
    }
}
