import DPPXTestSupport
import Foundation
import Testing

/// An SVG under ROOT is a document that may carry `<script>`: opened directly from `dppx serve`
/// its script must not run in the site's origin (the answer's `Content-Security-Policy` sandboxes
/// it), and the same file must still draw in an `<img>`.
@Suite("SVG answers are sandboxed (end to end, Chromium)", .serialized)
struct SVGSafetyBrowserTests {
    /// A red 40x40 square whose script, if it ran, would rewrite its own text.
    static let svg = """
    <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="rgb(255,0,0)"/>\
    <text id="state" x="0" y="20">inert</text>\
    <script>document.getElementById("state").textContent = "script ran";</script></svg>
    """

    static let page = """
    <!doctype html>
    <html><head><meta charset="utf-8"></head><body>
    <img id="picture" src="drawing.svg">
    <pre id="observation"></pre>
    <script>
    window.addEventListener("load", () => {
      const picture = document.getElementById("picture");
      const canvas = document.createElement("canvas");
      canvas.width = 40; canvas.height = 40;
      const context = canvas.getContext("2d");
      context.drawImage(picture, 0, 0);
      const pixel = Array.from(context.getImageData(5, 5, 1, 1).data);
      const observation = JSON.stringify({ width: picture.naturalWidth, height: picture.naturalHeight, pixel });
      \(PageReport.script(sending: "observation"))
    });
    </script>
    </body></html>
    """

    struct Observation: Decodable {
        let width: Int
        let height: Int
        let pixel: [Int]
    }

    @Test("Chromium: an SVG's script does not run when the SVG is opened directly; the SVG still draws in an <img>",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func scriptBlockedImageDrawn() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: [:], svg: false)
        try scenario.write(Self.svg, to: "site/drawing.svg")
        try scenario.write(Self.page, to: "site/index.html")
        let server = try await ServeProcess(["site"], in: scenario.root)

        let opened = try await chromium.dumpDOM(of: server.url("drawing.svg"), deviceScaleFactor: 1, root: "<svg")
        #expect(opened.contains(">inert<") && !opened.contains(">script ran<"), "the SVG's script ran in the site's origin: \(opened)")

        let dom = try await chromium.dumpDOM(of: server.url(""), deviceScaleFactor: 1)
        let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "\(dom)")
        let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
        #expect(observation.width == 40 && observation.height == 40, "\(observation)")
        #expect(observation.pixel == [255, 0, 0, 255], "the SVG draws in an <img>: \(observation)")
        #expect(try await server.interrupt() == 0)
    }
}
