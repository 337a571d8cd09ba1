import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx measure` in real headless Chromium: a Bootstrap-like site (a one-third grid of fluid
/// images with breakpoints at 576, 768, 992 and 1200 px, a fixed 200 px logo, a 70vh cover
/// hero under a gradient) is measured into `dppx-layout.json`, and the samples give, through
/// `SizesFitter`, the `sizes` the stylesheet implies.
@Suite("dppx measure (Chromium)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct MeasureCommandTests {
    static let stylesheet = """
        *, *::before, *::after { box-sizing: border-box; }
        body { margin: 0; }
        .container { width: 100%; padding: 0 12px; margin: 0 auto; }
        @media (min-width: 576px) { .container { max-width: 540px; } }
        @media (min-width: 768px) { .container { max-width: 720px; } }
        @media (min-width: 992px) { .container { max-width: 960px; } }
        @media (min-width: 1200px) { .container { max-width: 1140px; } }
        .row { display: flex; flex-wrap: wrap; margin: 0 -12px; }
        .col { flex: 0 0 100%; max-width: 100%; padding: 0 12px; }
        @media (min-width: 768px) { .col { flex: 0 0 33.333333%; max-width: 33.333333%; } }
        .img-fluid { max-width: 100%; height: auto; }
        .logo { width: 200px; height: auto; }
        .hero { height: 70vh; background: linear-gradient(rgba(0,0,0,.4), rgba(0,0,0,.4)), url(../img/hero.jpg) center / cover no-repeat; }
        """

    static let page = """
        <!doctype html>
        <html><head><link rel="stylesheet" href="css/site.css"></head>
        <body>
        <header><img class="logo" src="img/logo.png" alt=""></header>
        <section class="hero"></section>
        <div class="container"><div class="row">
        <div class="col"><img class="img-fluid" src="img/a.jpg" alt=""></div>
        <div class="col"><img class="img-fluid" src="img/b.jpg" alt=""></div>
        </div></div>
        <p><img src="img/badge.png" alt=""></p>
        </body></html>
        """

    /// The site; the images exist only in the manifest (served at its sizes), except the logo.
    static func makeSite() throws -> ScratchFolder {
        let site = ScratchFolder("dppx-measure")
        try FileManager.default.createDirectory(atPath: site("css"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site("img"), withIntermediateDirectories: true)
        try stylesheet.write(toFile: site("css/site.css"), atomically: true, encoding: .utf8)
        try page.write(toFile: site("index.html"), atomically: true, encoding: .utf8)
        try "<!doctype html><p>before<script>undefinedFunction();</script>".write(toFile: site("broken.html"), atomically: true, encoding: .utf8)
        func image(_ path: String, _ width: Int, _ height: Int) -> Manifest.Image {
            Manifest.Image(source: path, path: path, sourceHash: "0", sourceDensity: Density(1), cssSize: PixelSize(width: width, height: height),
                           densityIndependent: false, fluid: true, skippedDensities: [], variants: [])
        }
        let manifest = Manifest(images: [image("img/a.jpg", 1200, 800), image("img/b.jpg", 1200, 800), image("img/logo.png", 400, 100),
                                         image("img/hero.jpg", 2400, 1200), image("img/badge.png", 150, 90)])
        try Data(manifest.encoded()).write(to: URL(fileURLWithPath: site(Manifest.fileName)))
        return site
    }

    /// Runs dppx measure with its temporary files (the browser's profile) under `site/tmp`.
    static func measure(_ site: ScratchFolder, _ arguments: String...) async throws -> ChildProcess.Completed {
        try FileManager.default.createDirectory(atPath: site("tmp"), withIntermediateDirectories: true)
        let path = try #require(Chromium.installed).executable
        return try await offPool {
            try ChildProcess.run(DPPXExecutable.path, ["measure", site.path] + arguments + ["--browser", path], environment: ["TMPDIR": site("tmp")])
        }
    }

    /// Chromium processes whose command line names `folder` (their profile lies in it).
    static func browsers(under folder: String) throws -> String {
        let result = try ChildProcess.run("/usr/bin/pgrep", ["-af", folder])
        return result.stdout.split(separator: "\n").filter { !$0.contains("pgrep") }.joined(separator: "\n")
    }

    /// A file's inode and modification time: what a rewrite, even of the same bytes, changes.
    static func identity(of path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return "\(attributes[.systemFileNumber] ?? "") \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
    }

    static func layout(_ site: ScratchFolder) throws -> LayoutFile {
        try JSONDecoder().decode(LayoutFile.self, from: Data(contentsOf: URL(fileURLWithPath: site(LayoutFile.fileName))))
    }

    @Test("the grid, the logo and the hero are measured; sizes fit the layout; a second run writes nothing; no browser is left")
    func measuresASite() async throws {
        let site = try Self.makeSite()
        let first = try await Self.measure(site, "--pages", "index.html")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout.contains("measured 1 page"), "\(first)")
        let page = try #require(try Self.layout(site).pages["index.html"])
        #expect(page.scrollbars == "hidden")
        #expect(page.dependencies.contains("css/site.css"))

        let sources = page.images.map(\.src)
        #expect(sources == ["img/logo.png", "img/a.jpg", "img/b.jpg", "img/badge.png"])
        let offsets = page.images.map(\.offset)
        #expect(offsets == ["img/logo.png", "img/a.jpg", "img/b.jpg", "img/badge.png"].map { Self.page.utf8Offset(of: "<img", before: $0) })

        // The logo: 200 px everywhere; the badge: its manifest width, served as an SVG of that size.
        #expect(page.images[0].samples.allSatisfy { $0.width == 200 && $0.height == 50 })
        #expect(page.images[3].samples.allSatisfy { $0.width == 150 && $0.height == 90 })

        // The grid: full width less the gutter below 768, a third of the container above.
        let grid = page.images[1]
        let fit = SizesFitter().fit(grid.boxSamples)
        guard case .sizes(let sizes) = fit else {
            Issue.record("no sizes fits the grid: \(fit)")
            return
        }
        let expected: [(viewport: Double, width: Double)] = [
            (320, 296), (575, 551), (576, 516), (767, 516), (768, 216), (991, 216), (992, 296), (1199, 296), (1200, 356), (2560, 356),
        ]
        for (viewport, width) in expected {
            let written = try #require(sizes.width(atViewport: viewport))
            #expect(abs(written - width) <= 0.5, "sizes \(sizes) gives \(written) px at \(viewport), the layout \(width)")
        }
        // Every breakpoint pinned to 1 px: samples on both sides of 576, 768, 992 and 1200.
        let viewports = Set(grid.samples.map(\.viewport))
        for breakpoint in [576.0, 768, 992, 1200] {
            #expect(viewports.contains(breakpoint) && viewports.contains(breakpoint - 1), "breakpoint \(breakpoint) not pinned: \(viewports.sorted())")
        }

        // The hero: the image layer under the gradient, covering a 70vh box.
        let hero = try #require(page.backgrounds.first)
        #expect(page.backgrounds.count == 1)
        #expect(hero.layer == 1 && hero.url == "/img/hero.jpg" && hero.size == "cover")
        let at1280 = try #require(hero.samples.first { $0.viewport == 1280 })
        #expect(at1280.areaWidth == 1280 && at1280.areaHeight == 560)
        #expect(at1280.paintedWidth == 1280 && at1280.paintedHeight == 640)
        let at320 = try #require(hero.samples.first { $0.viewport == 320 })
        #expect(at320.paintedWidth == 1120 && at320.paintedHeight == 560)

        let written = try Self.identity(of: site(LayoutFile.fileName))
        let second = try await Self.measure(site, "--pages", "index.html")
        #expect(second.status == 0, "\(second)")
        #expect(second.stdout.contains("measured 0 pages (1 unchanged, 0 failed) at 0 widths"), "\(second)")
        #expect(try Self.identity(of: site(LayoutFile.fileName)) == written)

        // A changed stylesheet is measured again.
        try (Self.stylesheet + "\n.logo { width: 180px; }").write(toFile: site("css/site.css"), atomically: true, encoding: .utf8)
        let third = try await Self.measure(site, "--pages", "index.html")
        #expect(third.stdout.contains("measured 1 page"), "\(third)")
        #expect(try Self.layout(site).pages["index.html"]?.images.first?.samples.first?.width == 180)

        #expect(try Self.browsers(under: site.path).isEmpty)
        // Chromium's own temporary folders (`org.chromium.Chromium.*`) went into its profile.
        #expect(try FileManager.default.contentsOfDirectory(atPath: site("tmp")).isEmpty)
    }

    @Test("a page's requests are its own: one that keeps asking for files after its turn adds nothing to the pages measured after it in its tab")
    func lateRequestsStayWithTheirPage() async throws {
        let site = try Self.makeSite()
        try "<!doctype html><script>let n = 0; setInterval(() => { new Image().src = 'late/' + (n++) + '.png'; }, 1);</script>"
            .write(toFile: site("noisy.html"), atomically: true, encoding: .utf8)
        let quiet = (1...6).map { "quiet-\($0).html" }
        for page in quiet { try "<!doctype html><p>quiet</p>".write(toFile: site(page), atomically: true, encoding: .utf8) }
        let result = try await Self.measure(site, "--pages", "noisy.html", "quiet-*.html")
        #expect(result.status == 0, "\(result)")
        let layout = try Self.layout(site)
        // The noisy page's own requests count: `late/` does not exist, so the root folder, where
        // it would appear, is what its missing files depend on (never the paths it made up).
        #expect(layout.pages["noisy.html"]?.dependencies.contains("./") == true, "the noisy page's own requests count")
        #expect(layout.pages["noisy.html"]?.dependencies.contains { $0.hasPrefix("late/") } == false)
        for page in quiet {
            let dependencies = try #require(layout.pages[page]?.dependencies, "\(page) measured")
            #expect(dependencies == [page], "\(page): \(dependencies)")
        }
    }

    @Test("a page whose script throws is measured as it stands, as a browser shows it, with a warning naming the error")
    func measuresABrokenPage() async throws {
        let site = try Self.makeSite()
        let result = try await Self.measure(site)
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("broken.html: measured as it stands after its scripts threw ReferenceError: undefinedFunction is not defined"), "\(result)")
        #expect(try Self.layout(site).pages.keys.sorted() == ["broken.html", "index.html"])
        #expect(try Self.browsers(under: site.path).isEmpty)
    }

    @Test("a page that never finishes is named after --timeout; the others are measured")
    func timesOutAHangingPage() async throws {
        let site = try Self.makeSite()
        try "<!doctype html><script>while (true) {}</script>".write(toFile: site("hang.html"), atomically: true, encoding: .utf8)
        // Long enough for index.html on a machine busy with other tests (some 3 s alone).
        let result = try await Self.measure(site, "--pages", "hang.html", "index.html", "--timeout", "20")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("hang.html: not measured: it did not load and measure within 20 s"), "\(result)")
        #expect(result.stdout.contains("measured 1 page (0 unchanged, 1 failed)"), "\(result)")
        #expect(try Self.browsers(under: site.path).isEmpty)
    }

    @Test("a page that breaks out of frames is named with why it cannot be measured; the others are measured")
    func frameBustingPage() async throws {
        let site = try Self.makeSite()
        try "<!doctype html><script>if (top !== self) top.location = self.location;</script><p>framed</p>"
            .write(toFile: site("bust.html"), atomically: true, encoding: .utf8)
        let result = try await Self.measure(site, "--pages", "bust.html", "index.html")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("bust.html: not measured: it took over the window it was shown in (a frame-busting script"), "\(result)")
        #expect(result.stdout.contains("measured 1 page (0 unchanged, 1 failed)"), "\(result)")
        #expect(try Self.browsers(under: site.path).isEmpty)
    }

    @Test("without Chromium, one line says how to install it and the exit status is 1")
    func noBrowser() async throws {
        let site = try Self.makeSite()
        let empty = site("no-browsers")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try await offPool {
            try ChildProcess.run(DPPXExecutable.path, ["measure", site.path], environment: ["PATH": empty])
        }
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.hasPrefix("dppx: error: no Chromium found") && result.stderr.contains("install it (apt install chromium) or pass --browser PATH"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: site(LayoutFile.fileName)))
    }

    @Test("Ctrl-C while a page hangs ends dppx with 130 and leaves no browser")
    func interruptLeavesNoBrowser() async throws {
        let site = try Self.makeSite()
        try "<!doctype html><script>while (true) {}</script>".write(toFile: site("hang.html"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: site("tmp"), withIntermediateDirectories: true)
        let chromium = try #require(Chromium.installed).executable
        let child = try ChildProcess(DPPXExecutable.path, ["measure", site.path, "--pages", "hang.html", "--browser", chromium],
                                     environment: ["TMPDIR": site("tmp")])
        let deadline = Date().addingTimeInterval(30)
        while try Self.browsers(under: site.path).isEmpty, Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try !Self.browsers(under: site.path).isEmpty, "the browser never started")
        try await Task.sleep(for: .milliseconds(500))
        child.signal(SIGINT)
        let ended = try await offPool { child.wait(timeout: 30) }
        #expect(ended?.status == 130, "\(String(describing: ended))")
        let left = try Self.browsers(under: site.path)
        #expect(left.isEmpty, "left running: \(left)")
        let files = try FileManager.default.contentsOfDirectory(atPath: site("tmp"))
        #expect(files.isEmpty, "left in TMPDIR: \(files)")
    }

    @Test("SIGKILL of dppx while a page hangs leaves no browser, no profile and no temporary folder of the browser's")
    func killLeavesNothing() async throws {
        let site = try Self.makeSite()
        try "<!doctype html><script>while (true) {}</script>".write(toFile: site("hang.html"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: site("tmp"), withIntermediateDirectories: true)
        let chromium = try #require(Chromium.installed).executable
        let child = try ChildProcess(DPPXExecutable.path, ["measure", site.path, "--pages", "hang.html", "--browser", chromium],
                                     environment: ["TMPDIR": site("tmp")])
        // Killed once the page hangs: the browser has started its renderer and written its profile.
        let deadline = Date().addingTimeInterval(30)
        while try !Self.browsers(under: site.path).contains("--type=renderer"), Date() < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(try Self.browsers(under: site.path).contains("--type=renderer"), "the page never started")
        try await Task.sleep(for: .milliseconds(500))
        child.signal(SIGKILL)
        _ = try await offPool { child.wait(timeout: 30) }
        // The browser reads the end of its DevTools pipe and quits; its shell removes the profile.
        let settled = Date().addingTimeInterval(10)
        func left() throws -> (processes: String, files: [String]) {
            (try Self.browsers(under: site.path), try FileManager.default.contentsOfDirectory(atPath: site("tmp")))
        }
        while try left().processes != "" || !left().files.isEmpty, Date() < settled { try await Task.sleep(for: .milliseconds(100)) }
        let (processes, files) = try left()
        #expect(processes.isEmpty, "left running: \(processes)")
        #expect(files.isEmpty, "left in TMPDIR: \(files)")
    }
}

private extension String {
    /// The byte offset of the last `marker` before the first `text`.
    func utf8Offset(of marker: String, before text: String) -> Int {
        let bytes = Array(utf8)
        let target = Array(text.utf8), mark = Array(marker.utf8)
        var end = 0
        while end + target.count <= bytes.count, Array(bytes[end..<(end + target.count)]) != target { end += 1 }
        var start = end - mark.count
        while start >= 0, Array(bytes[start..<(start + mark.count)]) != mark { start -= 1 }
        return start
    }
}
