import DPPXTestSupport
import Foundation
import Testing

/// `<img srcset>` written by `dppx html --no-dimensions` for an odd-sized image (301x201 @2x: a
/// 151x101 box, its 1.5x 227x152) lays out exactly 151 CSS px wide in Chromium and Firefox at
/// DPR 1, 1.5 and 2: the srcset densities are the files' exact ratios (a nominal `1.5x` would
/// give 151.33 px), and each screen still takes the file of its density.
@Suite("Exact srcset densities (end to end)", .serialized)
struct ExactDensityBrowserTests {
    struct Observation: Decodable {
        let dpr: Double
        /// [width, height] in CSS px.
        let box: [Double]
        /// The file shown.
        let shown: String
    }

    static func makeSite() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["odd@2x.jpg": (301, 201)], svg: false)
        try await scenario.build()
        let html = try await scenario.dppx("html", "public", "odd.jpg", "--no-dimensions", "-o", "odd.html")
        guard html.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx html failed: \(html)") }
        let markup = (scenario.read("odd.html") ?? "").replacingOccurrences(of: "loading=\"lazy\"", with: "loading=\"eager\"")
            .replacingOccurrences(of: "<img ", with: "<img id=\"odd\" onload=\"report()\" ")
        // The report and its target come before the image, whose onload may fire as soon as it is parsed.
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>body { margin: 0 } img { display: block } #observation { margin: 0 }</style></head>
        <body>
        <pre id="observation"></pre>
        <script>
        function report() {
          const image = document.getElementById("odd");
          const rect = image.getBoundingClientRect();
          const observation = JSON.stringify({ dpr: devicePixelRatio, box: [rect.width, rect.height], shown: new URL(image.currentSrc).pathname });
          \(PageReport.script(sending: "observation"))
        }
        </script>
        \(markup)
        </body></html>
        """
        try scenario.write(page, to: "page.html")
        return scenario
    }

    static func check(_ observation: Observation, dpr: Double, browser: String) {
        let context = "\(browser) at DPR \(dpr): \(observation)"
        #expect(observation.dpr == dpr, "\(context)")
        #expect(abs(observation.box[0] - 151) < 0.02, "exactly the CSS width: \(context)")
        let expected = dpr >= 2 ? "/public/odd@2x.jpg" : dpr >= 1.5 ? "/public/odd@1.5x.jpg" : "/public/odd.jpg"
        #expect(observation.shown == expected, "the file of the screen's density: \(context)")
    }

    @Test("Chromium: an odd-sized image's srcset lays out at its exact CSS width at DPR 1, 1.5 and 2",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func chromium() async throws {
        let chromium = try #require(Chromium.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        for dpr in [1.0, 1.5, 2.0] {
            Self.check(try await PageReport.chromium(chromium, "page.html", on: server, dpr: dpr), dpr: dpr, browser: "Chromium")
        }
    }

    @Test("Firefox: an odd-sized image's srcset lays out at its exact CSS width at DPR 1, 1.5 and 2",
          .enabled(if: Firefox.installed != nil, Firefox.skipReason))
    func firefox() async throws {
        let firefox = try #require(Firefox.installed)
        let site = try await Self.makeSite()
        let server = try StaticServer(root: site.root)
        let collector = try ReportCollector()
        for dpr in [1.0, 1.5, 2.0] {
            Self.check(try await PageReport.firefox(firefox, "page.html", on: server, collector: collector, run: "exact-\(dpr)", dpr: dpr),
                       dpr: dpr, browser: "Firefox")
        }
    }
}
