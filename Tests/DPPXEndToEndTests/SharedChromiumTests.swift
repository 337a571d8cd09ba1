import DPPXTestSupport
import Foundation
import Testing

/// The browser tests read pages through `Chromium.dumpDOM`, which loads them in one shared
/// Chromium: what it returns must be what `--dump-dom` in a browser of its own printed, or the
/// tests would check something else than before.
@Suite("Chromium's shared browser dumps a page as --dump-dom does (end to end)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct SharedChromiumTests {
    /// A doctype, a script that writes after a timer (page time: virtual time runs it at once),
    /// and the device pixel ratio and viewport the page saw.
    static let page = """
    <!DOCTYPE html>
    <html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>
    <pre id="observation"></pre>
    <script>
    addEventListener("load", () => setTimeout(() => {
      document.getElementById("observation").textContent =
        JSON.stringify([devicePixelRatio, innerWidth, innerHeight, document.documentElement.clientWidth]);
    }, 2000));
    </script>
    </body></html>
    """

    @Test("the same text for an HTML page with a doctype and a late script at DPR 1.5, and for an SVG opened directly")
    func sameDump() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: [:], svg: false)
        try scenario.write(Self.page, to: "site/index.html")
        try scenario.write(#"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect width="4" height="4"/></svg>"#,
                           to: "site/drawing.svg")
        let server = try StaticServer(root: scenario.scratch("site"))

        let shared = try await chromium.dumpDOM(of: server.url("index.html"), deviceScaleFactor: 1.5, windowSize: (700, 500))
        let launched = try await chromium.launchedDumpDOM(of: server.url("index.html"), deviceScaleFactor: 1.5, windowSize: (700, 500))
        #expect(shared.hasPrefix("<!DOCTYPE html>\n<html"), "\(shared)")
        #expect(Chromium.text(ofElementWithID: "observation", in: shared) == "[1.5,700,357,700]", "\(shared)")
        #expect(shared.trimmingCharacters(in: .newlines) == launched.trimmingCharacters(in: .newlines),
                "shared:\n\(shared)\nlaunched:\n\(launched)")

        let svg = try await chromium.dumpDOM(of: server.url("drawing.svg"), deviceScaleFactor: 1, root: "<svg")
        let launchedSVG = try await chromium.launchedDumpDOM(of: server.url("drawing.svg"), deviceScaleFactor: 1, root: "<svg")
        #expect(svg.trimmingCharacters(in: .newlines) == launchedSVG.trimmingCharacters(in: .newlines),
                "shared:\n\(svg)\nlaunched:\n\(launchedSVG)")
    }

    @Test("a page that never stops running fails its own load at its timeout; the next load is served as usual")
    func hungPage() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: [:], svg: false)
        try scenario.write("<!doctype html><html><body><script>while (true) {}</script></body></html>", to: "site/hang.html")
        try scenario.write(Self.page, to: "site/index.html")
        let server = try StaticServer(root: scenario.scratch("site"))

        let started = Date()
        await #expect(throws: Chromium.Failure.self) {
            _ = try await chromium.dumpDOM(of: server.url("hang.html"), deviceScaleFactor: 1, timeout: 5)
        }
        #expect(Date().timeIntervalSince(started) < 30, "the hung load took \(Date().timeIntervalSince(started)) s")
        let dom = try await chromium.dumpDOM(of: server.url("index.html"), deviceScaleFactor: 2, windowSize: (700, 500))
        #expect(Chromium.text(ofElementWithID: "observation", in: dom) == "[2,700,357,700]", "\(dom)")
    }
}
