import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx serve ROOT` on a site whose images were built into a subfolder, and the rule that the
/// server changes the layout only of images whose size the user stated.
@Suite("dppx serve on a site's layout, and images without stated intent (end to end)", .serialized)
struct ServeSiteLayoutTests {
    /// hero.jpg has no @Nx and no rule (it states no density: kept at its own 801x501, with a
    /// width ladder); icons/logo@3x.png names its density.
    static func site() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["hero.jpg": (801, 501), "icons/logo@3x.png": (96, 96)], svg: false)
        try await scenario.build(into: "site/assets/img")
        try scenario.write("<!doctype html><p>home</p>", to: "site/index.html")
        return scenario
    }

    func get(_ server: ServeProcess, _ path: String, _ headers: [String: String] = [:]) async throws -> RawHTTPConnection.Response {
        let port = server.port
        return try await offPool { try RawHTTPConnection.get(port: port, path: path, headers: headers) }
    }

    @Test("a manifest in assets/img/ answers /assets/img/...; an image without stated size keeps its own file; a rebuilt manifest is re-read")
    func nestedManifest() async throws {
        let scenario = try await Self.site()
        let server = try await ServeProcess(["site"], in: scenario.root)
        #expect(server.log().contains("site/assets/img/\(Manifest.fileName): picking variants for 2 images"),
                "the startup line names the manifest actually loaded: \(server.log())")
        #expect(!server.log().contains("site/\(Manifest.fileName):"), "\(server.log())")
        let logo = try await get(server, "/assets/img/icons/logo.png", ["Sec-CH-DPR": "2"])
        #expect(logo.status == 200)
        #expect(logo.header("Content-Location")?.hasSuffix("assets/img/icons/logo@2x.png") == true, "\(logo.headers)")
        #expect(logo.header("Content-DPR") == "2")

        let hero = try await get(server, "/assets/img/hero.jpg", ["Sec-CH-DPR": "2"])
        let heroFile = try Data(contentsOf: URL(fileURLWithPath: scenario.scratch("site/assets/img/hero.jpg")))
        #expect(hero.status == 200)
        #expect(Data(hero.body) == heroFile, "the file asked for, unchanged")
        #expect(hero.header("Content-DPR") == nil && hero.header("Content-Location") == nil, "\(hero.headers)")

        // Stating the density opts the image in; the server notices the rebuilt manifest.
        try await scenario.build(into: "site/assets/img", ["--source-density", "2"])
        var negotiated: RawHTTPConnection.Response?
        for _ in 0..<40 {
            let answer = try await get(server, "/assets/img/hero.jpg", ["Sec-CH-DPR": "2"])
            // A JPEG answer states its density in EXIF, not Content-DPR: the variant sent tells.
            if answer.header("Content-Location")?.hasSuffix("hero@2x.jpg") == true { negotiated = answer; break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(negotiated?.header("Content-Location")?.hasSuffix("assets/img/hero@2x.jpg") == true)
        #expect(negotiated?.header("ETag")?.hasSuffix("-2x\"") == true, "a negotiated answer with its density inserted has its own tag")
        #expect(try await server.interrupt() == 0)
    }

    static let page = """
    <!doctype html>
    <html><head><meta charset="utf-8"><style>body { margin: 0 } img { display: block } .shown { max-width: 300px }</style></head>
    <body>
    <img id="plain" src="assets/img/hero.jpg" alt="">
    <img id="styled" class="shown" src="assets/img/hero.jpg" alt="">
    <pre id="observation"></pre>
    <script>
    addEventListener("load", () => setTimeout(() => {
      const box = id => { const r = document.getElementById(id).getBoundingClientRect(); return [r.width, r.height]; };
      document.getElementById("observation").textContent = JSON.stringify([box("plain"), box("styled")]);
    }, 200));
    </script>
    </body></html>
    """

    @Test("an unchanged page lays out exactly as from a plain static server when no intent was given (Chromium, DPR 1 and 2)",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func sameLayout() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try await Self.site()
        try scenario.write(Self.page, to: "site/index.html")
        let dppx = try await ServeProcess(["site"], in: scenario.root)
        let plain = try StaticServer(root: scenario.scratch("site"))
        for dpr in [1.0, 2.0] {
            var boxes: [String] = []
            for url in [dppx.url(""), "http://127.0.0.1:\(plain.port)/"] {
                // Twice: the second load carries the client hints the first page asked for.
                _ = try await chromium.dumpDOM(of: url, deviceScaleFactor: dpr)
                let dom = try await chromium.dumpDOM(of: url, deviceScaleFactor: dpr)
                boxes.append(try #require(Chromium.text(ofElementWithID: "observation", in: dom), "\(dom)"))
            }
            #expect(boxes[0] == boxes[1], "at DPR \(dpr), dppx serve: \(boxes[0]); a static server: \(boxes[1])")
            #expect(boxes[1].hasPrefix("[[801,501],"), "hero.jpg's own file, the master's 801x501: \(boxes[1])")
        }
        #expect(try await dppx.interrupt() == 0)
    }
}
