import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// The real `dppx serve` and a real browser: a plain `<img src>` with no width or height gets
/// the variant of the screen's DPR (from Chromium's client hints), and lays out at its CSS size
/// thanks to `Content-DPR`.
@Suite("dppx serve picks the variant for a real browser (end to end)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct ServeBrowserTests {
    struct Observation: Decodable {
        let dpr: Double
        /// Bytes of photo.jpg's response body as it arrived (Resource Timing).
        let encodedBodySize: Int
        /// The laid-out box of the plain <img>, CSS px.
        let box: [Double]
        let naturalWidth: Int
    }

    static let page = """
    <!doctype html>
    <html><head><meta charset="utf-8"><style>body { margin: 0 } img { display: block }</style></head>
    <body>
    <img id="plain" src="photo.jpg" alt="">
    <pre id="observation"></pre>
    <script>
    function report() {
      const image = document.getElementById("plain");
      const entry = performance.getEntriesByType("resource").find(e => new URL(e.name).pathname === "/photo.jpg");
      const rect = image.getBoundingClientRect();
      document.getElementById("observation").textContent = JSON.stringify({
        dpr: devicePixelRatio, encodedBodySize: entry ? entry.encodedBodySize : -1,
        box: [rect.width, rect.height], naturalWidth: image.naturalWidth });
    }
    addEventListener("load", () => setTimeout(report, 200));
    </script>
    </body></html>
    """

    @Test("at DPR 1, 1.5, 2 and 3 the plain <img src> receives that density's bytes and is the CSS size")
    func plainImage() async throws {
        let chromium = try #require(Chromium.installed)
        let site = try RenderScenario(masters: ["photo@3x.jpg": (600, 300)], svg: false)
        try await site.build(into: "public", ["--densities", "1,1.5,2,3"])
        try site.write(Self.page, to: "public/index.html")
        let manifestBytes = try #require(FileManager.default.contents(atPath: site.scratch("public/" + Manifest.fileName)))
        let photo = try #require(try Manifest.decode(Array(manifestBytes)).images.first)
        let server = try await ServeProcess(["public"], in: site.root)

        for dpr in [1.0, 1.5, 2.0, 3.0] {
            let expected = try #require(photo.variants.first { $0.density == Density(dpr) })
            let dom = try await chromium.dumpDOM(of: server.url(""), deviceScaleFactor: dpr)
            let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "no observation at DPR \(dpr): \(dom)")
            let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
            #expect(observation.dpr == dpr)
            #expect(observation.encodedBodySize == expected.bytes,
                    "at DPR \(dpr) the browser got \(observation.encodedBodySize) bytes; \(expected.path) has \(expected.bytes)")
            #expect(observation.box == [200, 100], "the plain <img> lays out at its CSS size at DPR \(dpr)")
            #expect(observation.naturalWidth == 200, "Content-DPR makes the natural width the CSS width")
        }
        let log = server.log()
        #expect(log.contains("GET /photo.jpg"), "the access log names the request: \(log)")
        #expect(try await server.interrupt() == 0, "Ctrl-C stops the server cleanly: \(server.log())")
    }

    @Test("serve: a missing ROOT and a port in use are clear startup errors with exit 1")
    func startupErrors() async throws {
        let site = try RenderScenario(masters: [:], svg: false)
        let missing = try await site.dppx("serve", "nowhere", "--port", "0")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nowhere: no such folder"), "\(missing)")

        try site.write("<p>hi</p>", to: "site/index.html")
        let server = try await ServeProcess(["site"], in: site.root)
        let clash = try await site.dppx("serve", "site", "--port", "\(server.port)")
        #expect(clash.status == 1)
        #expect(clash.stderr.contains("port \(server.port) on 127.0.0.1 is already in use"), "\(clash)")

        let usage = try await site.dppx("serve", "site", "--css", "x.css")
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--watch"), "\(usage)")
    }
}
