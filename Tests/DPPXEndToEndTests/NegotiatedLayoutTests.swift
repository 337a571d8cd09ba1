import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// The real `dppx serve`, and Chromium and Firefox at DPR 1, 1.5, 2 and 3: a plain `<img src>`
/// without width or height receives its density's bytes and lays out at its CSS size, whichever
/// engine: Chromium (client hints) and Firefox (the `dpr` cookie, from the second view on).
/// Beside them, `srcset` and `<picture>` of the same files keep their size, which EXIF density
/// in the variant files themselves would halve.
///
/// The page reports through a `ReportCollector`: which bytes arrived (Resource Timing
/// `encodedBodySize`), each image's box and natural size.
@Suite("A negotiated image lays out at its CSS size in Chromium and Firefox (end to end)", .serialized,
       .enabled(if: Chromium.installed != nil || Firefox.installed != nil,
                "neither chromium nor firefox-esr is installed (scripts/install-deps --test): browser tests skipped"))
struct NegotiatedLayoutTests {
    struct Observation: Decodable {
        let dpr: Double
        /// Element id -> what it showed.
        let images: [String: Shown]

        struct Shown: Decodable {
            /// Path of the URL the element loaded (`currentSrc`).
            let path: String
            /// Bytes of its response body as they arrived; -1 when Resource Timing has no entry.
            let bytes: Int
            let box: [Double]
            let natural: [Int]
        }
    }

    /// JPEG and PNG masters at 3x of a 200x100 box, and a 301x201 JPEG at 2x of 151x101, built
    /// with `--formats webp,avif`; `public/index.html` shows each negotiated URL plainly, and the
    /// explicit variant files through `srcset` and `<picture>`, all without width or height.
    static func makeSite() async throws -> RenderScenario {
        let site = try RenderScenario(masters: ["photo@3x.jpg": (600, 300), "shot@3x.png": (600, 300), "odd@2x.jpg": (301, 201)], svg: false)
        try await site.build(into: "public", ["--densities", "1,1.5,2,3", "--formats", "webp,avif"])
        try site.write(page, to: "public/index.html")
        return site
    }

    static let page = """
    <!doctype html>
    <html><head><meta charset="utf-8">
    <script src="/_dppx/dpr.js"></script>
    <style>body { margin: 0 } img { display: block }</style>
    <script>
    const ids = ["jpeg", "png", "odd", "jpeg-srcset", "png-srcset", "jpeg-picture"];
    let settled = 0;
    function shown(image) {
      const url = image.currentSrc || image.src;
      const entry = performance.getEntriesByName(url).pop();
      const rect = image.getBoundingClientRect();
      return { path: new URL(url).pathname, bytes: entry ? entry.encodedBodySize : -1,
               box: [rect.width, rect.height], natural: [image.naturalWidth, image.naturalHeight] };
    }
    // Reports before the load event ends (the report image holds it), so Firefox's --screenshot
    // run waits for the report.
    function settle() {
      if (++settled < ids.length) return;
      const images = {};
      for (const id of ids) images[id] = shown(document.getElementById(id));
      const params = new URLSearchParams(location.search);
      const report = new Image();
      report.src = params.get("collector") + "/report?" + encodeURIComponent(
        "run=" + params.get("run") + " " + JSON.stringify({ dpr: devicePixelRatio, images }));
      document.body.appendChild(report);
    }
    </script>
    </head><body>
    <img id="jpeg" src="photo.jpg" onload="settle()" onerror="settle()" alt="">
    <img id="png" src="shot.png" onload="settle()" onerror="settle()" alt="">
    <img id="odd" src="odd.jpg" onload="settle()" onerror="settle()" alt="">
    <img id="jpeg-srcset" srcset="photo@1.5x.jpg 1.5x, photo@2x.jpg 2x, photo@3x.jpg 3x, photo.jpg?1x 1x" onload="settle()" onerror="settle()" alt="">
    <img id="png-srcset" srcset="shot@1.5x.png 1.5x, shot@2x.png 2x, shot@3x.png 3x, shot.png?1x 1x" onload="settle()" onerror="settle()" alt="">
    <picture>
      <source type="image/avif" srcset="photo.avif 1x, photo@1.5x.avif 1.5x, photo@2x.avif 2x, photo@3x.avif 3x">
      <img id="jpeg-picture" srcset="photo.jpg?1x 1x, photo@2x.jpg 2x" onload="settle()" onerror="settle()" alt="">
    </picture>
    </body></html>
    """

    /// Bytes the server adds to a variant when it writes the density in: a JPEG APP1 segment
    /// (2 + 2 + `Exif\\0\\0` + 108) and a PNG `eXIf` chunk (12 + 108).
    static let addedToJPEG = 118
    static let addedToPNG = 120

    /// What each element must have received at `dpr`: the variant file and the bytes added.
    /// Where AVIF and WebP are both accepted, the smaller of the two by `manifest` is sent.
    static func expected(dpr: Double, engineHasHints: Bool, manifest: Manifest) -> [String: (variant: String, added: Int)] {
        let suffix = Density(dpr).fileSuffix
        let oddSuffix = dpr >= 2 ? "@2x" : suffix  // no 3x: it would upscale
        let bytes = Dictionary(manifest.images.flatMap(\.variants).map { ($0.path, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        func smaller(_ stem: String) -> String {
            (bytes[stem + ".webp"] ?? 0) < (bytes[stem + ".avif"] ?? 0) ? stem + ".webp" : stem + ".avif"
        }
        var expected: [String: (variant: String, added: Int)]
        if dpr == 1 {
            expected = ["jpeg": (smaller("photo"), 0), "png": (smaller("shot"), 0), "odd": (smaller("odd"), 0)]
        } else if engineHasHints {
            // Chromium: AVIF or WebP with Content-DPR, exact for 600x300; the odd image needs its JPEG's EXIF.
            expected = ["jpeg": (smaller("photo\(suffix)"), 0), "png": (smaller("shot\(suffix)"), 0), "odd": ("odd\(oddSuffix).jpg", addedToJPEG)]
        } else {
            // Firefox: only the JPEG and PNG can say their density.
            expected = ["jpeg": ("photo\(suffix).jpg", addedToJPEG), "png": ("shot\(suffix).png", addedToPNG), "odd": ("odd\(oddSuffix).jpg", addedToJPEG)]
        }
        // srcset's 1x candidate is the negotiated URL itself (the 1x file has no other name).
        expected["jpeg-srcset"] = dpr == 1 ? (smaller("photo"), 0) : ("photo\(suffix).jpg", 0)
        expected["png-srcset"] = dpr == 1 ? (smaller("shot"), 0) : ("shot\(suffix).png", 0)
        expected["jpeg-picture"] = ("photo\(suffix).avif", 0)
        return expected
    }

    static func check(_ observation: Observation, dpr: Double, engine: String, engineHasHints: Bool, manifest: Manifest) {
        #expect(observation.dpr == dpr, "\(engine)")
        let variants = Dictionary(manifest.images.flatMap(\.variants).map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for (id, want) in expected(dpr: dpr, engineHasHints: engineHasHints, manifest: manifest) {
            guard let shown = observation.images[id], let variant = variants[want.variant] else {
                Issue.record("\(engine) at DPR \(dpr): no observation of \(id), or no variant \(want.variant)")
                continue
            }
            #expect(shown.bytes == variant.bytes + want.added,
                    "\(engine) at DPR \(dpr): \(id) (\(shown.path)) got \(shown.bytes) bytes; \(want.variant) has \(variant.bytes) + \(want.added)")
            let box: [Double] = id == "odd" ? [151, 101] : [200, 100]
            #expect(shown.box == box, "\(engine) at DPR \(dpr): \(id) (\(shown.path)) is \(shown.box), not the CSS size")
            #expect(shown.natural == box.map { Int($0) }, "\(engine) at DPR \(dpr): \(id)'s natural size is its CSS size")
        }
    }


    /// The site served by `dppx serve`, its manifest, and a collector for the page's reports.
    struct Served {
        let site: RenderScenario
        let manifest: Manifest
        let server: ServeProcess
        let collector: ReportCollector

        static func start() async throws -> Served {
            let site = try await NegotiatedLayoutTests.makeSite()
            let bytes = try #require(FileManager.default.contents(atPath: site.scratch("public/" + Manifest.fileName)))
            return Served(site: site, manifest: try Manifest.decode(Array(bytes)),
                          server: try await ServeProcess(["public"], in: site.root), collector: try ReportCollector())
        }

        /// The page's URL for the load tagged `run`.
        func page(run: String) -> String { server.url("?run=\(run)&collector=\(collector.origin)") }

        /// What the page loaded as `run` reported, checked as `engine` at `dpr`.
        func check(run: String, dpr: Double, engine: String, engineHasHints: Bool) async throws {
            let observation = try await collector.observation(of: run, as: Observation.self)
            NegotiatedLayoutTests.check(observation, dpr: dpr, engine: engine, engineHasHints: engineHasHints, manifest: manifest)
        }
    }

    @Test("Chromium (client hints): at DPR 1, 1.5, 2 and 3 each image gets its density's bytes and lays out at its CSS size",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func chromium() async throws {
        let chromium = try #require(Chromium.installed)
        let served = try await Served.start()
        for dpr in [1.0, 1.5, 2.0, 3.0] {
            _ = try await chromium.dumpDOM(of: served.page(run: "chromium-\(dpr)"), deviceScaleFactor: dpr)
            try await served.check(run: "chromium-\(dpr)", dpr: dpr, engine: "Chromium", engineHasHints: true)
        }
        let server = served.server
        let log = server.log()
        #expect(log.contains("GET /photo.jpg"), "the access log names the request: \(log)")
        #expect(try await server.interrupt() == 0, "Ctrl-C stops the server cleanly: \(server.log())")
    }

    @Test("Firefox (the dpr cookie): on the second view at DPR 1, 1.5, 2 and 3 each image gets its density's bytes and lays out at its CSS size",
          .enabled(if: Firefox.installed != nil, Firefox.skipReason))
    func firefox() async throws {
        let firefox = try #require(Firefox.installed)
        let served = try await Served.start()
        for dpr in [1.0, 1.5, 2.0, 3.0] {
            let profile = try Firefox.Profile(devicePixelRatio: dpr)
            // The first view sets the dpr cookie; the second is measured.
            try await firefox.load(served.page(run: "first-\(dpr)"), in: profile)
            try await firefox.load(served.page(run: "firefox-\(dpr)"), in: profile)
            try await served.check(run: "firefox-\(dpr)", dpr: dpr, engine: "Firefox", engineHasHints: false)
        }
    }
}
