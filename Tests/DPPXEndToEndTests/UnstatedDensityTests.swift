import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// A tool dropped into a site never changes what a page shows unless told: a blog photo, an
/// ordinary 778 px JPEG without `@Nx` in a 600 px column, keeps its plain file at 778 px, and
/// its page lays out exactly as the untouched page, from `dppx serve` and from a plain static
/// server, in Chromium and Firefox at DPR 1 and 2.
@Suite("A master that states no density keeps its size (end to end)", .serialized)
struct UnstatedDensityTests {
    struct Observation: Decodable, Equatable {
        /// Element id -> [width, height] in CSS px.
        let boxes: [String: [Double]]
        /// Element id -> the image's natural width in pixels.
        let natural: [String: Int]
    }

    /// `orig/` is the untouched site (the master itself as `img/post.jpg`); `site/` the same
    /// page with `dppx build src --out site/img`.
    static func makeSite() async throws -> (scenario: RenderScenario, build: ExternalProcess.Result) {
        let scenario = try RenderScenario(masters: ["post.jpg": (778, 519)], svg: false)
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>body { margin: 0 } .column { width: 600px }</style></head><body>
        <div class="column"><img id="column" src="img/post.jpg" alt="" style="max-width: 100%"></div>
        <img id="natural" src="img/post.jpg" alt="">
        <script>
        let loaded = 0;
        function settle() {
          if (++loaded < 2) return;
          const boxes = {}, natural = {};
          for (const image of document.images) {
            const rect = image.getBoundingClientRect();
            boxes[image.id] = [rect.width, rect.height];
            natural[image.id] = image.naturalWidth;
          }
          const params = new URLSearchParams(location.search);
          const report = new Image();
          report.src = params.get("collector") + "/report?" + encodeURIComponent("run=" + params.get("run") + " " + JSON.stringify({ boxes, natural }));
          document.body.appendChild(report);
        }
        for (const image of [...document.images]) {
          if (image.complete && image.currentSrc) settle(); else { image.addEventListener("load", settle); image.addEventListener("error", settle); }
        }
        </script>
        </body></html>
        """
        try scenario.write(page, to: "orig/index.html")
        try scenario.write(page, to: "site/index.html")
        try FileManager.default.createDirectory(atPath: scenario.scratch("orig/img"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: scenario.scratch("src/post.jpg"), toPath: scenario.scratch("orig/img/post.jpg"))
        let build = try await scenario.dppx("build", "src", "--out", "site/img")
        guard build.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx build failed: \(build)") }
        return (scenario, build)
    }

    @Test("the plain file is the master's size, the ladder is beside it, the build says what it assumed, and serve never negotiates it")
    func files() async throws {
        let (scenario, build) = try await Self.makeSite()
        let plain = try DecodedFile(scenario.scratch("site/img/post.jpg"))
        #expect(plain.width == 778 && plain.height == 519)
        for (name, width) in [("post-322w.jpg", 322), ("post-432w.jpg", 432), ("post-580w.jpg", 580)] {
            #expect(try DecodedFile(scenario.scratch("site/img/" + name)).width == width, "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: scenario.scratch("site/img/post@2x.jpg")))
        let manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: scenario.scratch("site/img/dppx-manifest.json")))))
        #expect(manifest.images.map(\.intent) == [.default])
        #expect(build.stdout.contains("note: 1 master (such as post.jpg) states no density: kept at its own size under the plain name"), "\(build.stdout)")
        #expect(build.stdout.contains("name it @2x (or @Nx), pass --source-density, or give a [[rule]] density or width"))

        let server = try await ServeProcess(["site"], in: scenario.root)
        let port = server.port
        let file = try Data(contentsOf: URL(fileURLWithPath: scenario.scratch("site/img/post.jpg")))
        for dpr in ["1", "2", "3"] {
            let answer = try await offPool { try RawHTTPConnection.get(port: port, path: "/img/post.jpg", headers: ["Sec-CH-DPR": dpr, "Sec-CH-Viewport-Width": "400"]) }
            #expect(answer.status == 200)
            #expect(Data(answer.body) == file, "the plain URL is answered with the plain file at DPR \(dpr)")
            #expect(answer.header("Content-Location") == nil && answer.header("Content-DPR") == nil && answer.header("Vary") == nil, "\(answer.headers)")
        }
    }

    @Test("boxes are the untouched page's in Chromium and Firefox at DPR 1 and 2, from dppx serve and from a static server",
          .enabled(if: Chromium.installed != nil || Firefox.installed != nil, Chromium.skipReason))
    func boxes() async throws {
        let (scenario, _) = try await Self.makeSite()
        let statics = try StaticServer(root: scenario.root)
        let served = try await ServeProcess(["site"], in: scenario.root)
        let collector = try ReportCollector()
        let pages = [("untouched", statics.url("orig/index.html")), ("static", statics.url("site/index.html")), ("serve", served.url("index.html"))]
        var runs = 0
        for dpr in [1.0, 2.0] {
            var engines: [(String, (String) async throws -> Void)] = []
            if let chromium = Chromium.installed {
                engines.append(("chromium", { url in _ = try await chromium.dumpDOM(of: url, deviceScaleFactor: dpr) }))
            }
            if let firefox = Firefox.installed {
                let profile = try Firefox.Profile(devicePixelRatio: dpr)
                engines.append(("firefox", { url in try await firefox.load(url, in: profile) }))
            }
            for (engine, load) in engines {
                var observed: [String: Observation] = [:]
                for (host, url) in pages {
                    runs += 1
                    let run = "\(engine)-\(dpr)-\(host)-\(runs)"
                    try await load(url + "?run=\(run)&collector=\(collector.origin)")
                    observed[host] = try await collector.observation(of: run, as: Observation.self)
                }
                let untouched = try #require(observed["untouched"])
                #expect(untouched.boxes["natural"] == [778, 519] && abs((untouched.boxes["column"]?[0] ?? 0) - 600) < 0.1, "\(engine) at DPR \(dpr): \(untouched)")
                #expect(untouched.natural == ["column": 778, "natural": 778])
                for host in ["static", "serve"] {
                    #expect(observed[host] == untouched, "\(engine) at DPR \(dpr) from \(host): \(String(describing: observed[host])) vs \(untouched)")
                }
            }
        }
    }
}
