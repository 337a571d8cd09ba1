import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// A measured page is hostile code and every number it reports is untrusted, in real Chromium:
/// a page's own `data-dppx-at`, a box scaled to 1e19 px, a background painted 1e-17 px wide, a
/// hand-edited layout file with a sample of 1e20 or 80,000 samples, and a page that reads the
/// project's private files and a 256 MB file and writes what it got into its markup. None
/// crashes dppx; a page is named with why; nothing private reaches a page or the layout file.
@Suite("Hostile measured pages (Chromium)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct HostileMeasuredPageTests {
    /// A site with one 1200x800 fluid master, built into `site/img`, and the pages given.
    static func makeSite(pages: [String: String]) throws -> RenderScenario {
        let scenario = try RenderScenario(masters: [:], svg: false)
        try TestImages.write(scenario.scratch("src/g.jpg"), width: 1200, height: 800, bands: 3)
        try scenario.write("""
            [build]
            source = "src"
            out = "site/img"
            [rewrite]
            root = "site"
            pages = [\(pages.keys.sorted().map { "\"site/\($0)\"" }.joined(separator: ", "))]
            """, to: "dppx.toml")
        for (name, text) in pages { try scenario.write(text, to: "site/" + name) }
        return scenario
    }

    static func page(_ body: String, style: String = "") -> String {
        """
        <!doctype html><html><head><meta charset="utf-8"><style>body { margin: 0 } img { display: block } \(style)</style></head>
        <body>\(body)</body></html>

        """
    }

    @Test("a page's own data-dppx-at of 1e300, transform: scale(1e17) and background-size: 1e-17px crash nothing: the build builds, the page is named with why")
    func hostileNumbers() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try Self.makeSite(pages: [
            "image.html": Self.page(#"<image data-dppx-at="1e300" src="img/g.jpg"><img src="img/g.jpg" style="width: 50%">"#),
            "scale.html": Self.page(#"<img src="img/g.jpg" style="width: 100px; transform: scale(1e17)">"#),
            "tiny.html": Self.page(#"<div class="tiny"></div><img src="img/g.jpg" style="width: 40%">"#,
                                   style: ".tiny { height: 100px; background: url(img/g.jpg) 0 0 / 1e-17px }"),
            "ok.html": Self.page(#"<img src="img/g.jpg" style="width: 50%">"#),
        ])
        let build = try await scenario.dppx("build", "--browser", chromium.executable)
        #expect(build.status == 0 || build.status == 1, "a failure, not a crash (132 was a trap): \(build)")
        #expect(FileManager.default.fileExists(atPath: scenario.scratch("site/img/g.jpg")), "the images are built: \(build)")
        #expect(build.stderr.contains("scale.html: not measured: it reported a measurement no layout has"), "\(build)")
        #expect(build.stderr.contains("transform or size far beyond any screen"), "\(build)")
        #expect(!build.stderr.contains("tiny.html: not measured") && !build.stderr.contains("ok.html: not measured"), "\(build)")
        // The page's own attribute is never taken for a mark: image.html is measured without it,
        // or named with why, never a trap.
        #expect(!build.stderr.contains("image.html: not measured") || build.stderr.contains("offset of an <img>"), "\(build)")
        #expect(scenario.read("site/ok.html")?.contains("sizes=") == true, "the other pages are rewritten: \(build)")
        #expect(scenario.read("site/tiny.html")?.contains("sizes=") == true, "\(build)")
        let layout = try #require(scenario.read("site/img/dppx-layout.json"))
        #expect(!layout.contains("1e+300") && !layout.contains("e+19"), "\(layout.prefix(400))")
    }

    @Test("a hand-edited layout file with a sample of 1e20 and 80,000 samples on one image: named, measured again, rewritten in seconds")
    func tamperedLayoutFile() async throws {
        let chromium = try #require(Chromium.installed)
        let scenario = try Self.makeSite(pages: [
            "a.html": Self.page(#"<img src="img/g.jpg" style="width: 50%">"#),
            "b.html": Self.page(#"<img src="img/g.jpg" style="width: 30%">"#),
        ])
        let first = try await scenario.dppx("build", "--browser", chromium.executable)
        #expect(first.status == 0, "\(first)")
        let path = scenario.scratch("site/img/dppx-layout.json")
        var layout = try JSONDecoder().decode(LayoutFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let huge = try #require(layout.pages["a.html"]?.images.first?.samples.first)
        layout.pages["a.html"]!.images[0].samples[0] = LayoutFile.Sample(viewport: huge.viewport, width: 1e20, height: huge.height)
        layout.pages["b.html"]!.images[0].samples = (0..<80_000).map { LayoutFile.Sample(viewport: 320 + Double($0) * 0.028, width: 96 + Double($0) * 0.0084, height: 64) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(layout).write(to: URL(fileURLWithPath: path))

        let started = ContinuousClock.now
        let again = try await scenario.dppx("rewrite", "--browser", chromium.executable)
        #expect(ContinuousClock.now - started < .seconds(60))
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("pages.a.html.images.0.samples.0.width is 1e+20"), "\(again)")
        #expect(again.stderr.contains("a.html is measured again"), "\(again)")
        #expect(again.stderr.contains("pages.b.html.images.0.samples is 80000 samples, but a layout has at most 4096"), "\(again)")
        #expect(again.stdout.contains("measured 2 pages"), "\(again)")
        let rewritten = try JSONDecoder().decode(LayoutFile.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(rewritten.pages.values.allSatisfy { $0.images.allSatisfy { $0.samples.count < 4096 && $0.samples.allSatisfy { $0.width < 3000 } } })
    }

    @Test("a page that reads .env, dppx.toml, .git/config, a master and a 256 MB file gets 404s, as from dppx serve, and writes nothing of them into the layout file")
    func privateFiles() async throws {
        let chromium = try #require(Chromium.installed)
        let site = ScratchFolder("dppx-hostile")
        try FileManager.default.createDirectory(atPath: site(".git"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site("masters"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site("tmp"), withIntermediateDirectories: true)
        try "TOKEN=SECRETENV".write(toFile: site(".env"), atomically: true, encoding: .utf8)
        try "[build]\nsource = \"masters\"\nout = \"img\"\n# SECRETTOML\n".write(toFile: site("dppx.toml"), atomically: true, encoding: .utf8)
        try "[remote]\nurl = https://SECRETGIT@example.com".write(toFile: site(".git/config"), atomically: true, encoding: .utf8)
        try "SECRETMASTER".write(toFile: site("masters/m.jpg"), atomically: true, encoding: .utf8)
        try "PUBLIC".write(toFile: site("public.txt"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: site("env.txt"), withDestinationPath: ".env")
        #expect(FileManager.default.createFile(atPath: site("big.bin"), contents: nil))
        let big = try FileHandle(forWritingTo: URL(fileURLWithPath: site("big.bin")))
        try big.truncate(atOffset: 256 << 20)
        try big.close()
        try TestImages.write(site("a.png"), width: 40, height: 20, bands: 4)
        // Each file's status becomes the width of a background's box (`#s0`...), and whatever
        // came back is written where a layout file records text: an <img src>, an id, a rule's
        // selector, a URL.
        let files = [".env", "%2eenv", "dppx.toml", ".git/config", "masters/m.jpg", "env.txt", "big.bin", "public.txt", "missing-SECRETPATH.txt"]
        try """
            <!doctype html><html><head><style>body { margin: 0 } img { display: block; height: 10px }</style></head><body>
            <!-- \(files.indices.map { "s\($0)" }.joined(separator: " ")) -->
            <img id="victim" src="a.png" style="width: 20px">
            <script>
            [\(files.map { "'\($0)'" }.joined(separator: ", "))].forEach((file, index) => {
              const request = new XMLHttpRequest();
              request.open('GET', '/' + file, false);
              request.send();
              const text = request.status === 200 ? request.responseText.slice(0, 40) : 'none';
              const word = text.replace(/\\W/g, '');
              document.getElementById('victim').src = encodeURIComponent(text) + '.png';
              document.write(`<div id="s${index}" style="width: ${request.status}px; height: 10px; background: url(a.png) 0 0 / 100% 100%"></div>`);
              document.write(`<div id="x${word}" style="height: 10px; background: url(a.png)"></div>`);
              document.write(`<style>.y${word} { background: url(a.png) }</style><div class="y${word}" style="height: 10px"></div>`);
              document.write(`<div style="height: 10px; background: url('data:image/svg+xml,<svg xmlns=%22http://www.w3.org/2000/svg%22 width=%2210%22 height=%2210%22 data-x=%22${encodeURIComponent(text)}%22/>')"></div>`);
            });
            </script></body></html>
            """.write(toFile: site("index.html"), atomically: true, encoding: .utf8)
        let started = ContinuousClock.now
        let result = try await offPool {
            try ChildProcess.run(DPPXExecutable.path, ["measure", site.path, "--browser", chromium.executable, "--config", site("dppx.toml")],
                                 environment: ["TMPDIR": site("tmp")])
        }
        #expect(result.status == 0, "\(result)")
        #expect(ContinuousClock.now - started < .seconds(30))
        let text = try String(contentsOfFile: site(LayoutFile.fileName), encoding: .utf8)
        for secret in ["SECRET", "TOKEN", "remote", "build]"] { #expect(!text.contains(secret), "\(secret) in \(text.prefix(2000))") }
        let layout = try JSONDecoder().decode(LayoutFile.self, from: Data(text.utf8))
        let page = try #require(layout.pages["index.html"])
        let statuses = files.indices.map { index in
            page.backgrounds.first { $0.element == "#s\(index)" }.map { Int($0.samples[0].areaWidth) }
        }
        #expect(statuses == [404, 404, 404, 404, 404, 404, 404, 200, 404], "\(statuses) \(page.backgrounds.map(\.element))")
        #expect(Set(page.dependencies) == ["index.html", "a.png", "public.txt", "big.bin", "./"], "\(page.dependencies)")
        #expect(page.images.map(\.src) == ["a.png"], "the source's src")
        #expect(page.backgrounds.allSatisfy { $0.url == "/a.png" && ($0.element.hasPrefix("#s") || $0.element.hasPrefix("html > body")) },
                "\(page.backgrounds.map { ($0.element, $0.url) })")
    }
}
