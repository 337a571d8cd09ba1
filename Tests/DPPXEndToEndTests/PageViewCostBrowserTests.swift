import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// The bytes per page view `dppx build` reports against what Chromium really fetches for the
/// rewritten page on the phone, the laptop and the desktop: the same files, and bytes within 2 %.
@Suite("What a page view costs, against Chromium (end to end)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct PageViewCostBrowserTests {
    struct Observation: Decodable {
        /// [path, encodedBodySize, transferSize] of every image fetched.
        let fetched: [[Value]]

        enum Value: Decodable {
            case text(String), number(Double)
            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .text(try container.decode(String.self)) }
            }
            var text: String { if case .text(let text) = self { text } else { "" } }
            var number: Double { if case .number(let number) = self { number } else { 0 } }
        }
    }

    struct BuildSummary: Decodable {
        let pageViews: PageViewCost?
    }

    /// What the page fetched below `/assets/img/`, reported into the DOM once every image is in.
    static let script = """
    <pre id="observation"></pre>
    <script>
    let attempts = 0;
    function report() {
      const fetched = performance.getEntriesByType("resource").filter(entry => new URL(entry.name).pathname.startsWith("/assets/img/"))
        .map(entry => [new URL(entry.name).pathname, entry.encodedBodySize, entry.transferSize]);
      document.getElementById("observation").textContent = JSON.stringify({ fetched });
    }
    function settle() {
      const names = performance.getEntriesByType("resource").map(entry => entry.name);
      const imagesDone = [...document.images].every(image => image.complete && image.naturalWidth > 0);
      if ((imagesDone && names.some(name => name.includes("/assets/img/banner"))) || ++attempts > 200) setTimeout(report, 300);
      else setTimeout(settle, 25);
    }
    addEventListener("load", settle);
    </script>
    """

    @Test("the files each profile fetches are the ones counted, and their bytes within 2 % of the line's")
    func againstChromium() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try InitCommandTests.site()
        let initialized = try await scenario.dppx("init")
        #expect(initialized.status == 0, "\(initialized)")
        let built = try await scenario.dppx("build", "--json")
        #expect(built.status == 0, "\(built)")
        let pageViews = try #require(try JSONDecoder().decode(BuildSummary.self, from: Data(built.stdout.utf8)).pageViews, "\(built)")
        let page = try #require(scenario.read("site/index.html"))
        try scenario.write(page.replacingOccurrences(of: "</body>", with: Self.script + "</body>"), to: "site/view.html")
        let server = try StaticServer(root: scenario.scratch("site"))
        for (index, profile) in pageViews.profiles.enumerated() {
            let dom = try await chromium.dumpDOM(of: server.url("view.html"), deviceScaleFactor: profile.dpr,
                                                 windowSize: (Int(profile.width), Int(profile.height)))
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
            let fetched = try JSONDecoder().decode(Observation.self, from: Data(json.utf8)).fetched
            let counted = pageViews.pages.flatMap(\.images).map { "/" + $0.fetches[index].after.path }
            let context = "\(profile.name): fetched \(fetched.map { $0[0].text }), counted \(counted)"
            #expect(Set(fetched.map { $0[0].text }) == Set(counted), "\(context)")
            // The bodies' bytes: transferSize adds each response's headers (some 200 B from this
            // server), which no file on disk holds.
            let bytes = fetched.reduce(0) { $0 + $1[1].number }
            let total = Double(pageViews.totals[index].after)
            #expect(abs(bytes - total) <= total * 0.02, "\(context): \(bytes) B fetched, \(total) B counted")
        }

        // dppx rewrite says the same after its run.
        let rewritten = try await scenario.dppx("rewrite")
        #expect(rewritten.status == 0, "\(rewritten)")
        #expect(rewritten.stdout.contains("image bytes per page view, before -> after: phone "), "\(rewritten)")
        let unmeasured = try await scenario.dppx("rewrite", "--no-measure")
        #expect(!unmeasured.stdout.contains("image bytes per page view"), "without measuring, no layout to count with: \(unmeasured)")
    }
}
