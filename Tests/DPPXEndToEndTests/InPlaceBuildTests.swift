import DPPXCore
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// A site that keeps its images beside its pages (`site/assets/img/`), built in place: the
/// variants go beside the masters, every master keeps its name and bytes, a second build reads
/// no variant as a master, and `dppx serve`, `dppx rewrite`, `dppx html` and `dppx css` work on
/// the result.
@Suite("dppx build in place: variants beside the masters (end to end)", .serialized)
struct InPlaceBuildTests {
    static let images = "site/assets/img"

    /// banner.jpg (800x400, stated 2x by a rule: a 400x200 box), logo@2x.png (240x80: 120x40)
    /// and hero.jpg (801x501, no stated size: a width ladder), and a page that shows them.
    static func site() throws -> RenderScenario {
        let scenario = try RenderScenario(masters: [:], svg: false)
        try TestImages.write(scenario.scratch("\(images)/banner.jpg"), width: 800, height: 400)
        try TestImages.write(scenario.scratch("\(images)/logo@2x.png"), width: 240, height: 80, bands: 4, seed: 2)
        try TestImages.write(scenario.scratch("\(images)/hero.jpg"), width: 801, height: 501, seed: 3)
        try scenario.write("""
        [build]
        source = "\(images)"
        out = "\(images)"

        [[rule]]
        match = "banner.jpg"
        density = 2
        """, to: "dppx.toml")
        try scenario.write(#"<!doctype html><img id="banner" src="assets/img/banner.jpg" alt=""><img id="logo" src="assets/img/logo@2x.png" alt="">"#,
                           to: "site/index.html")
        return scenario
    }

    static func build(_ scenario: RenderScenario, _ extra: [String] = []) async throws -> ExternalProcess.Result {
        try await scenario.dppx(arguments: ["build", images, "--out", images + "/"] + extra)
    }

    /// Every file in the images' folder and its SHA-256.
    static func files(_ scenario: RenderScenario) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: scenario.scratch(images)) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: scenario.scratch("\(images)/\(name)")))
            files[name] = ContentHash.sha256(Array(bytes))
        }
        return files
    }

    static let masters = ["banner.jpg", "hero.jpg", "logo@2x.png"]

    @Test("a build in place killed (SIGKILL) or interrupted (Ctrl-C) while writing variants: the next build completes every master; Ctrl-C speaks of no browser",
          arguments: [SIGKILL, SIGINT])
    func interrupted(signal: Int32) async throws {
        let scenario = try RenderScenario(masters: [:], svg: false)
        let count = 8
        for index in 0..<count {
            try TestImages.write(scenario.scratch("\(Self.images)/photo\(index)@2x.jpg"), width: 1200, height: 800, seed: UInt64(index + 1))
        }
        let errors = scenario.scratch("killed.stderr")
        let child = try ChildProcess(DPPXExecutable.path, ["build", Self.images, "--out", Self.images, "--jobs", "1", "--formats", "webp,avif"],
                                     in: scenario.root, standardError: .file(errors))
        // Stopped as soon as its first variant is on disk, long before its manifest.
        let folder = scenario.scratch(Self.images)
        let written = try await offPool { () -> Bool in
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, child.termination == nil {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                // Signalled here, on this thread, the moment it is seen: back on Swift's pool, busy
                // with other tests, the signal came seconds later, after the build had ended.
                if names.contains(where: { $0.contains("@1x.") || $0.contains("@1.5x.") }) {
                    child.signal(signal)
                    return true
                }
                _ = child.wait(timeout: 0.005)
            }
            return false
        }
        let ended = try await offPool { child.wait(timeout: 30) }
        try #require(written, "the build wrote no variant before it ended: \(String(describing: ended))")
        #expect(ended?.status == (signal == SIGKILL ? 128 + SIGKILL : 130), "\(String(describing: ended))")
        try #require(!FileManager.default.fileExists(atPath: folder + "/" + Manifest.fileName), "the build was stopped before its manifest")
        if signal == SIGINT {
            let said = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
            #expect(said.contains("interrupted") && !said.contains("browser"), "no browser was started: \(said)")
        }

        let next = try await scenario.dppx("build", Self.images, "--out", Self.images)
        #expect(next.status == 0 && !next.stderr.contains("is not a file dppx wrote"), "\(next)")
        let manifest = try Manifest.decode(Array(try #require(scenario.read("\(Self.images)/\(Manifest.fileName)")).utf8))
        #expect(manifest.images.map(\.source).sorted() == (0..<count).map { "photo\($0)@2x.jpg" }.sorted(), "every master is built")
        for image in manifest.images {
            #expect(image.variants.contains { $0.path == image.source.replacingOccurrences(of: "@2x.jpg", with: "@1x.jpg") }, "\(image.source)")
        }
        let again = try await scenario.dppx("build", Self.images, "--out", Self.images)
        #expect(again.status == 0 && again.stdout.contains("0 built, \(count) unchanged"), "a third build has nothing to do: \(again)")
    }

    @Test("masters keep their names and bytes; a second build changes nothing and reads no variant as a master; cleanup never deletes a master")
    func buildTwice() async throws {
        let scenario = try Self.site()
        let before = try Self.files(scenario)
        let first = try await Self.build(scenario, ["--formats", "webp"])
        #expect(first.status == 0, "\(first)")
        var after = try Self.files(scenario)
        for master in Self.masters { #expect(after[master] == before[master], "\(master) is the master, untouched") }
        for variant in ["banner@1x.jpg", "banner@2x.jpg", "logo@1x.png", "logo@1.5x.png", "hero-597w.jpg", "hero-597w.webp"] {
            #expect(after[variant] != nil, "\(variant): \(after.keys.sorted())")
        }
        #expect(after["banner.webp"] == nil && after["logo.png"] == nil, "in place, a plain name is a master's: \(after.keys.sorted())")
        let manifest = try Manifest.decode(Array(try #require(scenario.read("\(Self.images)/\(Manifest.fileName)")).utf8))
        #expect(manifest.images.map(\.source) == Self.masters)
        let banner = try #require(manifest.images.first { $0.source == "banner.jpg" })
        #expect(banner.path == "banner.jpg" && banner.cssSize == PixelSize(width: 400, height: 200))
        #expect(banner.variants(in: .jpeg).map(\.path) == ["banner@1x.jpg", "banner@1.5x.jpg", "banner@2x.jpg"])
        let logo = try #require(manifest.images.first { $0.source == "logo@2x.png" })
        #expect(logo.path == "logo@2x.png", "the plain URL is the one the site's pages use")
        #expect(logo.variants(in: .png).last?.path == "logo@2x.png" && logo.variants(in: .png).last?.hash == before["logo@2x.png"],
                "the 2x file of a 2x master is the master itself")

        let second = try await Self.build(scenario, ["--formats", "webp"])
        #expect(second.status == 0 && second.stdout.contains("3 images: 0 built, 3 unchanged"), "\(second)")
        #expect(!second.stdout.contains("skipped"), "the variants and the manifest are not reported as other files: \(second.stdout)")
        #expect(try Self.files(scenario) == after, "a second build is a no-op")

        // Every master stated 2x: hero.jpg's own file was its widest variant, and is now its
        // master only; fewer densities and no WebP: the variants dppx wrote are removed.
        let third = try await Self.build(scenario, ["--densities", "1,2", "--source-density", "2"])
        #expect(third.status == 0 && third.stderr.isEmpty, "\(third)")
        after = try Self.files(scenario)
        for master in Self.masters { #expect(after[master] == before[master], "\(master) is never deleted or overwritten") }
        #expect(after["hero@1x.jpg"] != nil && after["hero-597w.jpg"] == nil && after["logo@1.5x.png"] == nil && after["hero-597w.webp"] == nil,
                "\(after.keys.sorted())")
    }

    @Test("a file named as a variant that dppx did not write is neither a master nor written over")
    func foreignVariant() async throws {
        let scenario = try Self.site()
        try TestImages.write(scenario.scratch("\(Self.images)/banner@2x.jpg"), width: 10, height: 10, seed: 9)
        let own = try Self.files(scenario)["banner@2x.jpg"]
        let result = try await Self.build(scenario)
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("banner@2x.jpg: cannot write: is not a file dppx wrote"), "\(result.stderr)")
        #expect(!result.stderr.contains("would write the same files"), "not read as a master: \(result.stderr)")
        #expect(try Self.files(scenario)["banner@2x.jpg"] == own)
    }

    @Test("usage errors exit 2: SRC inside OUT, a missing SRC, a missing DIR")
    func usageErrors() async throws {
        let scenario = try Self.site()
        let inside = try await scenario.dppx("build", Self.images, "--out", "site")
        #expect(inside.status == 2 && inside.stderr.contains("the source is inside the output folder"), "\(inside)")
        let missing = try await scenario.dppx("build", "nowhere", "--out", "public")
        #expect(missing.status == 2 && missing.stderr.contains("nowhere: no such file or folder"), "\(missing)")
        let bare = try RenderScenario(masters: [:], svg: false)
        for command in ["css", "html"] {
            let result = try await bare.dppx(command, "nowhere")
            #expect(result.status == 2 && result.stderr.contains("nowhere: no such file or folder"), "\(command): \(result)")
        }
    }

    @Test("dppx serve negotiates the plain URL, dppx rewrite writes the 1x file's own name, dppx html and css describe the variants")
    func serveAndRewrite() async throws {
        let scenario = try Self.site()
        #expect(try await Self.build(scenario).status == 0)
        let server = try await ServeProcess(["site"], in: scenario.root)
        let port = server.port
        for (path, dpr, file) in [("banner.jpg", "1", "banner@1x.jpg"), ("banner.jpg", "2", "banner@2x.jpg"),
                                  ("logo@2x.png", "1", "logo@1x.png"), ("logo@2x.png", "2", "logo@2x.png")] {
            let answer = try await offPool { try RawHTTPConnection.get(port: port, path: "/assets/img/" + path, headers: ["Sec-CH-DPR": dpr]) }
            #expect(answer.status == 200 && answer.header("Content-Location")?.hasSuffix("/assets/img/" + file) == true,
                    "\(path) at DPR \(dpr): \(answer.status) \(answer.headers)")
        }
        let hero = try await offPool { try RawHTTPConnection.get(port: port, path: "/assets/img/hero.jpg", headers: ["Sec-CH-DPR": "2"]) }
        #expect(hero.status == 200 && hero.header("Content-Location") == nil, "a size nobody stated: the master as it is")
        #expect(hero.body == Array(try Data(contentsOf: URL(fileURLWithPath: scenario.scratch("\(Self.images)/hero.jpg")))),
                "[build] source is the folder the site publishes: its masters are served")
        #expect(try await server.interrupt() == 0)

        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0, "\(rewrite)")
        #expect(scenario.read("site/index.html") == #"<!doctype html><img id="banner" src="assets/img/banner.jpg" alt="" srcset="assets/img/banner@1x.jpg 1x, assets/img/banner@1.5x.jpg 1.5x, assets/img/banner@2x.jpg 2x"><img id="logo" src="assets/img/logo@2x.png" alt="" srcset="assets/img/logo@1x.png 1x, assets/img/logo@1.5x.png 1.5x, assets/img/logo@2x.png 2x">"#)
        #expect(try await Self.build(scenario).status == 0)
        let check = try await scenario.dppx("rewrite", "site/index.html", "--root", "site", "--check")
        #expect(check.status == 0, "a rebuild leaves the page as it is: \(check)")

        let html = try await scenario.dppx("html", Self.images)
        #expect(html.status == 0 && html.stdout.contains(#"<img src="banner@1x.jpg" srcset="banner@1x.jpg 1x, banner@1.5x.jpg 1.5x, banner@2x.jpg 2x""#), "\(html)")
        let css = try await scenario.dppx("css", Self.images)
        #expect(css.status == 0 && css.stdout.contains("banner@2x.jpg") && !css.stdout.contains("url(\"banner.jpg\")"), "\(css)")
    }

    @Test("Chromium and Firefox at DPR 1 and 2: the rewritten page of an in-place site shows the file its screen needs, at the 1x box")
    func browsers() async throws {
        let scenario = try Self.site()
        #expect(try await Self.build(scenario).status == 0)
        try scenario.write("<!doctype html><html><head><meta charset=\"utf-8\"><style>body { margin: 0 } img { display: block }</style></head><body>"
                           + #"<img id="banner" src="assets/img/banner.jpg" alt=""><img id="logo" src="assets/img/logo@2x.png" alt="">"#
                           + RewriteBrowserTests.script + "</body></html>", to: "site/index.html")
        let rewrite = try await scenario.dppx("rewrite", "site/index.html", "--root", "site")
        #expect(rewrite.status == 0 && rewrite.stdout.contains("2 images with candidates"), "\(rewrite)")
        let server = try StaticServer(root: scenario.scratch("site"))
        let collector = try ReportCollector()
        var runs = 0
        for dpr in [1.0, 2.0] {
            var engines: [(name: String, load: (String) async throws -> Void)] = []
            if let chromium = Chromium.installed {
                engines.append(("chromium", { url in _ = try await chromium.dumpDOM(of: url, deviceScaleFactor: dpr) }))
            }
            if let firefox = Firefox.installed {
                let profile = try Firefox.Profile(devicePixelRatio: dpr)
                engines.append(("firefox", { url in try await firefox.load(url, in: profile) }))
            }
            #expect(engines.count == 2, "Chromium and Firefox are installed")
            for engine in engines {
                runs += 1
                try await engine.load(server.url("index.html") + "?run=\(runs)&collector=\(collector.origin)")
                let seen = try await collector.observation(of: "\(runs)", as: RewriteBrowserTests.Observation.self)
                let context = "\(engine.name) at DPR \(dpr): \(seen)"
                #expect(seen.boxes["banner"] == [400, 200] && seen.boxes["logo"] == [120, 40], "\(context)")
                #expect(seen.shown["banner"] == (dpr == 1 ? "/assets/img/banner@1x.jpg" : "/assets/img/banner@2x.jpg"), "\(context)")
                #expect(seen.shown["logo"] == (dpr == 1 ? "/assets/img/logo@1x.png" : "/assets/img/logo@2x.png"), "\(context)")
            }
        }
    }
}
