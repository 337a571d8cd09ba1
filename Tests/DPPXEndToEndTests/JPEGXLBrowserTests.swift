import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// JPEG XL variants in real browsers, through the real `dppx serve`: Chromium, which asks for and
/// decodes `image/jxl`, gets the `.jxl` of its density from a `<picture>` written by `dppx html`
/// and from a plain negotiated `<img src>`, and shows the JPEG's pixels at the CSS size; Firefox,
/// which does neither, gets no JXL from either.
///
/// The page reports through a `ReportCollector`: for each image, the path and bytes that arrived
/// (Resource Timing), its natural size, and how far its pixels, drawn at the file's own size into a
/// canvas, are from the JPEG variant of the same density drawn the same way.
@Suite("JPEG XL variants in Chromium and Firefox (end to end)", .serialized,
       .enabled(if: Chromium.installed != nil || Firefox.installed != nil,
                "neither chromium nor firefox-esr is installed (scripts/install-deps --test): browser tests skipped"))
struct JPEGXLBrowserTests {
    struct Observation: Decodable {
        let dpr: Double
        let images: [String: Shown]

        struct Shown: Decodable {
            /// Path of the URL the element loaded (`currentSrc`).
            let path: String
            /// Bytes of its response body as they arrived; -1 when Resource Timing has no entry.
            let bytes: Int
            let natural: [Int]
            /// Mean and largest difference of a colour sample from the JPEG variant's.
            let meanDifference: Double
            let maxDifference: Int
        }
    }

    /// A 2x photo of a 200x125 box built at 1x and 2x with `--formats jxl`; `public/index.html`
    /// shows it plainly (negotiated) and through the `<picture>` `dppx html` writes.
    static func makeSite() async throws -> RenderScenario {
        let site = try RenderScenario(masters: ["photo@2x.jpg": (400, 250)], svg: false)
        try await site.build(into: "public", ["--densities", "1,2", "--formats", "jxl"])
        let html = try await site.dppx("html", "public", "photo.jpg", "-o", "public/picture.html")
        guard html.status == 0 else { throw RenderScenario.ScenarioFailure(message: "dppx html failed: \(html)") }
        let picture = site.read("public/picture.html") ?? ""
        guard picture.contains(#"<source type="image/jxl" srcset="photo.jxl 1x, photo@2x.jxl 2x">"#) else {
            throw RenderScenario.ScenarioFailure(message: "dppx html wrote no JXL source: \(picture)")
        }
        // The JPEG variants under names the server does not negotiate, to compare pixels with.
        try FileManager.default.createDirectory(atPath: site.scratch("public/reference"), withIntermediateDirectories: true)
        for name in ["photo.jpg", "photo@2x.jpg"] {
            try FileManager.default.copyItem(atPath: site.scratch("public/" + name), toPath: site.scratch("public/reference/" + name))
        }
        // Loaded at once: a lazy image below a small headless viewport may never load.
        try site.write(page(picture: picture.replacingOccurrences(of: #"loading="lazy""#, with: #"loading="eager""#)), to: "public/index.html")
        return site
    }

    static func page(picture: String) -> String {
        """
        <!doctype html>
        <html><head><meta charset="utf-8">
        <script src="/_dppx/dpr.js"></script>
        <style>body { margin: 0 } img { display: block }</style>
        <script>
        let settled = 0;
        // Reports before the load event ends (the report image holds it), so Firefox's
        // --screenshot run waits for the report: everything below runs from image onload.
        function pixels(image, width, height) {
          const canvas = document.createElement("canvas");
          canvas.width = width;
          canvas.height = height;
          const context = canvas.getContext("2d");
          context.drawImage(image, 0, 0, width, height);
          return context.getImageData(0, 0, width, height).data;
        }
        function shown(image) {
          const url = image.currentSrc || image.src;
          const entry = performance.getEntriesByName(url).pop();
          const path = new URL(url).pathname;
          // The file's own pixels: 200x125 at 1x, 400x250 at 2x.
          const density = devicePixelRatio >= 2 ? 2 : 1;
          const width = 200 * density, height = 125 * density;
          const reference = document.getElementById(density == 2 ? "reference-2x" : "reference-1x");
          let total = 0, largest = 255, count = 0;
          if (reference.naturalWidth > 0 && image.naturalWidth > 0) {
            const a = pixels(image, width, height), b = pixels(reference, width, height);
            largest = 0;
            for (let i = 0; i < a.length; i += 4) {
              for (let c = 0; c < 3; c++) {
                const difference = Math.abs(a[i + c] - b[i + c]);
                total += difference;
                largest = Math.max(largest, difference);
                count++;
              }
            }
          }
          return { path, bytes: entry ? entry.encodedBodySize : -1, natural: [image.naturalWidth, image.naturalHeight],
                   meanDifference: count ? total / count : 255, maxDifference: largest };
        }
        function settle() {
          if (++settled < 4) return;
          const images = {
            plain: shown(document.getElementById("plain")),
            picture: shown(document.querySelector("picture img")),
          };
          const params = new URLSearchParams(location.search);
          const report = new Image();
          report.src = params.get("collector") + "/report?" + encodeURIComponent(
            "run=" + params.get("run") + " " + JSON.stringify({ dpr: devicePixelRatio, images }));
          document.body.appendChild(report);
        }
        addEventListener("DOMContentLoaded", () => {
          for (const image of [...document.images]) {
            if (image.complete) settle(); else { image.onload = settle; image.onerror = settle; }
          }
        });
        </script>
        </head><body>
        <img id="reference-1x" src="reference/photo.jpg" alt="" style="display: none">
        <img id="reference-2x" src="reference/photo@2x.jpg" alt="" style="display: none">
        <img id="plain" src="photo.jpg" alt="">
        \(picture)
        </body></html>
        """
    }

    /// The site served by `dppx serve`, its manifest, and a collector for the page's reports.
    struct Served {
        let manifest: Manifest
        let server: ServeProcess
        let collector: ReportCollector
        let site: RenderScenario

        static func start() async throws -> Served {
            let site = try await JPEGXLBrowserTests.makeSite()
            let bytes = try #require(FileManager.default.contents(atPath: site.scratch("public/" + Manifest.fileName)))
            return Served(manifest: try Manifest.decode(Array(bytes)), server: try await ServeProcess(["public"], in: site.root),
                          collector: try ReportCollector(), site: site)
        }

        func page(run: String) -> String { server.url("?run=\(run)&collector=\(collector.origin)") }

        func bytes(of path: String) -> Int? {
            manifest.images.flatMap(\.variants).first { $0.path == path }?.bytes
        }
    }

    @Test("Chromium at DPR 1 and 2: the <picture> and the plain <img> both get the .jxl of the density, shown at the CSS size with the JPEG's pixels",
          .enabled(if: Chromium.installed != nil, Chromium.skipReason))
    func chromium() async throws {
        let chromium = try #require(Chromium.installed)
        let served = try await Served.start()
        for dpr in [1.0, 2.0] {
            let run = "chromium-\(dpr)"
            _ = try await chromium.dumpDOM(of: served.page(run: run), deviceScaleFactor: dpr)
            let observation = try await served.collector.observation(of: run, as: Observation.self)
            #expect(observation.dpr == dpr)
            let jxl = dpr == 2 ? "photo@2x.jxl" : "photo.jxl"
            let jpegBytes = try #require(served.bytes(of: dpr == 2 ? "photo@2x.jpg" : "photo.jpg"))
            let jxlBytes = try #require(served.bytes(of: jxl))
            #expect(jxlBytes < jpegBytes)
            for id in ["plain", "picture"] {
                let shown = try #require(observation.images[id])
                #expect(shown.bytes == jxlBytes, "Chromium at DPR \(dpr): \(id) (\(shown.path)) got \(shown.bytes) bytes; \(jxl) has \(jxlBytes)")
                #expect(shown.natural == [200, 125], "Chromium at DPR \(dpr): \(id) lays out at its CSS size")
                // Chromium's JPEG XL decoder and its JPEG decoder round a few samples apart (the
                // 2x file is the master's own JPEG, libvips's quality 75, kept at its own size:
                // 0.52 on average, 3 at most, measured).
                #expect(shown.meanDifference < 1 && shown.maxDifference <= 8,
                        "Chromium at DPR \(dpr): \(id)'s pixels differ from the JPEG's by \(shown.meanDifference) on average, \(shown.maxDifference) at most")
            }
            #expect(observation.images["picture"]?.path == "/\(jxl)")
            #expect(observation.images["plain"]?.path == "/photo.jpg", "the negotiated URL itself")
        }
    }

    @Test("Firefox at DPR 1 and 2: no JXL from the <picture> nor from the server",
          .enabled(if: Firefox.installed != nil, Firefox.skipReason))
    func firefox() async throws {
        let firefox = try #require(Firefox.installed)
        let served = try await Served.start()
        for dpr in [1.0, 2.0] {
            let profile = try Firefox.Profile(devicePixelRatio: dpr)
            // The first view sets the dpr cookie; the second is measured.
            try await firefox.load(served.page(run: "first-\(dpr)"), in: profile)
            try await firefox.load(served.page(run: "firefox-\(dpr)"), in: profile)
            let observation = try await served.collector.observation(of: "firefox-\(dpr)", as: Observation.self)
            let jpeg = dpr == 2 ? "photo@2x.jpg" : "photo.jpg"
            let jpegBytes = try #require(served.bytes(of: jpeg))
            let picture = try #require(observation.images["picture"])
            #expect(picture.path == "/\(jpeg)", "Firefox at DPR \(dpr): the <picture> gave \(picture.path)")
            #expect(picture.bytes == jpegBytes)
            let plain = try #require(observation.images["plain"])
            // The JPEG, with the density written in above 1x.
            #expect(plain.bytes == jpegBytes + (dpr == 2 ? 118 : 0), "Firefox at DPR \(dpr): the plain <img> got \(plain.bytes) bytes")
            for shown in [picture, plain] {
                #expect(shown.natural == [200, 125])
                #expect(shown.meanDifference == 0, "Firefox shows the JPEG itself")
            }
        }
    }
}
