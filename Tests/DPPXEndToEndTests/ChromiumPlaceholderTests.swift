import DPPXTestSupport
import Foundation
import Testing

/// A page from `dppx html --placeholder blur`, served by a server that holds every image back:
/// Chromium paints the placeholder in the image's box while it waits, then the image, and the
/// box keeps its size throughout.
@Suite("Chromium paints the placeholder until the image arrives (end to end)", .serialized,
       .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct ChromiumPlaceholderTests {
    /// When the early screenshot is taken, in milliseconds after the page's DOMContentLoaded:
    /// time to paint the placeholder. The image cannot arrive before it, however slowly the
    /// machine runs: the server holds every image until the test opens the gate.
    static let earlyShot = 1500

    /// `python3 -u slow.py ROOT GATE`: serves ROOT, answering anything but HTML only once the
    /// file GATE exists (at most 120 s later). A gate rather than a delay: on a busy machine a
    /// delay of seconds passed before Chromium's screenshot of the page was taken.
    static let slowServer = """
    import functools, http.server, os, sys, time
    gate = sys.argv[2]
    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            if not self.path.endswith(".html"):
                waited = 0.0
                while not os.path.exists(gate) and waited < 120:
                    time.sleep(0.05)
                    waited += 0.05
            return super().do_GET()
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=sys.argv[1]))
    server.daemon_threads = True
    print(f"Serving HTTP on 127.0.0.1 port {server.server_address[1]} (images held back)", flush=True)
    server.serve_forever()
    """

    /// What the page reports once its image has loaded.
    struct Observation: Decodable {
        /// The `<img>` box before the image arrived and after, in CSS px.
        let before: [Double]
        let after: [Double]
        let loaded: Bool
        /// Layout-shift scores seen.
        let shifts: [Double]
    }

    /// Mean colour of `file` over a square of `radius` around (`x`, `y`) pixels.
    static func colour(_ file: DecodedFile, x: Double, y: Double, radius: Int) -> [Double] {
        let cx = Int(x), cy = Int(y)
        var sums = [0.0, 0.0, 0.0], count = 0.0
        for row in max(0, cy - radius)...min(file.height - 1, cy + radius) {
            for column in max(0, cx - radius)...min(file.width - 1, cx + radius) {
                for band in 0..<3 { sums[band] += Double(file.pixels[(row * file.width + column) * file.bands + band]) }
                count += 1
            }
        }
        return sums.map { $0 / count }
    }

    static func distance(_ a: [Double], _ b: [Double]) -> Double {
        zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test("the box shows the placeholder's colours while the image is held back, then the image, at one size")
    func placeholderThenImage() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try RenderScenario(masters: [:], svg: false)
        // Six saturated bars, 400x200 CSS px: each part of the box has its own colour.
        try TestImages.writeColourBars(scenario.scratch("src/bars@2x.jpg"), width: 800, height: 400)
        try await scenario.build(into: "public")
        let html = try await scenario.dppx("html", "public", "--placeholder", "blur", "--base-url", "/public/")
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout.contains("style=\"background: url(data:image/webp;base64,"))
        let page = """
        <!doctype html>
        <html><head><meta charset="utf-8"><style>body { margin: 0; background: #fff }</style></head><body>
        \(html.stdout)
        <pre id="observation"></pre>
        <script>
        const shifts = [];
        new PerformanceObserver(list => { for (const entry of list.getEntries()) shifts.push(entry.value); })
          .observe({ type: "layout-shift", buffered: true });
        const image = document.querySelector("img");
        const box = () => { const rect = image.getBoundingClientRect(); return [rect.width, rect.height]; };
        const before = box();
        function report() {
          document.getElementById("observation").textContent =
            JSON.stringify({ before, after: box(), loaded: image.complete && image.naturalWidth > 0, shifts });
        }
        if (image.complete) setTimeout(report, 300); else image.addEventListener("load", () => setTimeout(report, 300));
        </script>
        </body></html>
        """
        try scenario.write(page, to: "page.html")
        try scenario.write(Self.slowServer, to: "slow.py")
        let gate = scenario.scratch("images-let-through")
        let server = try PythonServer([scenario.scratch("slow.py"), scenario.root, gate], name: "the slow test server")
        let url = "http://127.0.0.1:\(server.port)/page.html"

        // While the image is held back: the placeholder, stretched over the 400x200 box.
        try await chromium.screenshot(of: url, to: scenario.scratch("early.png"), stopAfter: Self.earlyShot)
        let early = try DecodedFile(scenario.scratch("early.png"))
        let manifest = try #require(scenario.read("public/dppx-manifest.json"))
        let preview = try #require(manifest.range(of: #"data:image/webp;base64,([A-Za-z0-9+/=]+)"#, options: .regularExpression)
            .map { String(manifest[$0].dropFirst("data:image/webp;base64,".count)) })
        try TestImages.writeBytes(Array(try #require(Data(base64Encoded: preview))), to: scenario.scratch("preview.webp"))
        let previewImage = try DecodedFile(scenario.scratch("preview.webp"))
        // background-size: cover, centred.
        let scale = max(400 / Double(previewImage.width), 200 / Double(previewImage.height))
        let offset = (x: (400 - Double(previewImage.width) * scale) / 2, y: (200 - Double(previewImage.height) * scale) / 2)
        let white = [255.0, 255, 255]
        for bar in 0..<6 {
            let x = (Double(bar) + 0.5) * 400 / 6
            for y in [70.0, 130.0] {
                let shown = Self.colour(early, x: x, y: y, radius: 3)
                let expected = Self.colour(previewImage, x: (x - offset.x) / scale, y: (y - offset.y) / scale, radius: 0)
                #expect(Self.distance(shown, expected) < 28, "at (\(x), \(y)) the box shows \(shown), the preview is \(expected)")
                #expect(Self.distance(shown, white) > 40, "at (\(x), \(y)) the box is empty")
            }
        }

        // Once it arrives: the image itself, in the same box.
        try scenario.write("", to: "images-let-through")
        try await chromium.screenshot(of: url, to: scenario.scratch("late.png"))
        let late = try DecodedFile(scenario.scratch("late.png"))
        let variant = try DecodedFile(scenario.scratch("public/bars.jpg"))
        #expect(variant.width == 400 && variant.height == 200)
        for bar in 0..<6 {
            let x = (Double(bar) + 0.5) * 400 / 6
            let shown = Self.colour(late, x: x, y: 100, radius: 3)
            let expected = Self.colour(variant, x: x, y: 100, radius: 3)
            #expect(Self.distance(shown, expected) < 12, "bar \(bar): the box shows \(shown), the image is \(expected)")
        }

        let dom = try await chromium.dumpDOM(of: url, deviceScaleFactor: 1)
        let json = try #require(Chromium.text(ofElementWithID: "observation", in: dom), "the page wrote no observation: \(dom)")
        let observation = try JSONDecoder().decode(Observation.self, from: Data(json.utf8))
        #expect(observation.loaded)
        #expect(observation.before == [400, 200])
        #expect(observation.after == [400, 200])
        #expect(observation.shifts.reduce(0, +) == 0, "layout shifts: \(observation.shifts)")
    }
}
