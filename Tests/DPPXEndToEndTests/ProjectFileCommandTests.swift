import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx.toml` read by every command: the same outputs from `build`, `css`, `html` and
/// `serve --watch` with no arguments, flags over the file, errors naming the line and key.
@Suite("dppx.toml, the project file (end to end)", .serialized)
struct ProjectFileCommandTests {
    static let projectFile = """
    [build]
    source = "src"
    out = "public"
    densities = [1, 2]
    formats = ["webp"]
    quality = 70

    [css]
    file = "public/site.css"
    box = false
    prefix = "img-"

    [html]
    base-url = "/img/"

    [[rule]]
    match = "photos/**"
    density = 1

    [[rule]]
    match = "drafts/**"
    exclude = true
    """

    static func scenario() throws -> RenderScenario {
        let scenario = try RenderScenario()
        try TestImages.write(scenario.scratch("src/photos/beach.jpg"), width: 300, height: 200)
        try TestImages.write(scenario.scratch("src/drafts/wip.jpg"), width: 300, height: 200)
        try scenario.write(projectFile, to: "dppx.toml")
        return scenario
    }

    func manifest(_ scenario: RenderScenario, _ folder: String = "public") throws -> Manifest {
        try Manifest.decode(Array(try #require(scenario.read("\(folder)/\(Manifest.fileName)")).utf8))
    }

    @Test("build, css, html and serve --watch with no arguments do what the file says, identically")
    func noArguments() async throws {
        let scenario = try Self.scenario()
        // Before any build, dppx css reads the masters with the file's rules...
        let predicted = try await scenario.dppx("css")
        #expect(predicted.status == 0, "\(predicted)")
        #expect(predicted.stderr.contains("dppx: note: src holds masters") && predicted.stderr.contains("write from the built folder"),
                "with extra formats, a prediction from masters says what it cannot know: \(predicted)")
        let fromMasters = try #require(scenario.read("public/site.css"))
        let build = try await scenario.dppx("build")
        #expect(build.status == 0, "\(build)")
        let manifest = try manifest(scenario)
        #expect(manifest.images.map(\.source) == ["hero@2x.jpg", "icons/logo@3x.png", "photos/beach.jpg", "vector.svg"], "drafts/** is excluded")
        let beach = try #require(manifest.images.first { $0.source == "photos/beach.jpg" })
        #expect(beach.cssSize == PixelSize(width: 300, height: 200) && beach.intent == .rule, "photos/** are 1x")
        #expect(Set(beach.variants.map(\.format)) == [.jpeg, .webp])
        #expect(manifest.images.first { $0.source == "hero@2x.jpg" }?.densities == [Density(1), Density(2)])
        let built = try #require(scenario.read("public/site.css"))
        #expect(built.contains(".img-hero {") && !built.contains("width:"), "the [css] options apply: \(built)")
        #expect(built == fromMasters, "...and writes what the build then writes")
        #expect(!built.contains("wip"), "excluded masters have no rule")

        try FileManager.default.removeItem(atPath: scenario.scratch("public/site.css"))
        let css = try await scenario.dppx("css")
        #expect(css.status == 0, "\(css)")
        #expect(scenario.read("public/site.css") == built, "dppx css writes [css] file exactly as dppx build did")

        let html = try await scenario.dppx("html")
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout == (try await scenario.dppx("html", "public")).stdout)
        #expect(html.stdout.contains("/img/photos/beach.webp") && !html.stdout.contains("wip"), "\(html.stdout)")

        let before = try #require(scenario.read("public/\(Manifest.fileName)"))
        try FileManager.default.removeItem(atPath: scenario.scratch("public"))
        let server = try await ServeProcess(["--watch"], in: scenario.root)
        #expect(try await server.interrupt() == 0, "\(server.log())")
        #expect(scenario.read("public/\(Manifest.fileName)") == before, "serve --watch builds the same files into [build] out")
        #expect(scenario.read("public/site.css") == built, "and writes the same stylesheet")
    }

    @Test("with a project file, PATHS alone select images of [build] out; css prints them rather than overwrite [css] file")
    func pathsAlone() async throws {
        let scenario = try Self.scenario()
        #expect(try await scenario.dppx("build", "--quiet").status == 0)
        let stylesheet = try #require(scenario.read("public/site.css"))
        let html = try await scenario.dppx("html", "photos/beach.jpg")
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout.contains("/img/photos/beach.jpg") && !html.stdout.contains("hero"), "\(html.stdout)")
        let two = try await scenario.dppx("html", "photos/beach.jpg", "public/hero.jpg")
        #expect(two.status == 0 && two.stdout.contains("beach") && two.stdout.contains("hero"), "\(two)")
        let css = try await scenario.dppx("css", "photos/beach.jpg")
        #expect(css.status == 0, "\(css)")
        #expect(css.stdout.contains(".img-photos-beach {") && !css.stdout.contains("hero"), "\(css.stdout)")
        #expect(scenario.read("public/site.css") == stylesheet, "[css] file keeps every image")
        let unknown = try await scenario.dppx("html", "team/client-1.jpg")
        #expect(unknown.status == 1 && unknown.stderr.contains("team/client-1.jpg: no such image in public"), "\(unknown)")
        #expect(try await scenario.dppx("html", "public").stdout.contains("hero"), "a folder is still DIR")
    }

    @Test("serve --watch builds [build] out inside [serve] root and negotiates its images at their paths")
    func nestedOutput() async throws {
        let scenario = try RenderScenario(svg: false)
        try scenario.write("[build]\nsource = \"src\"\nout = \"site/img\"\n[serve]\nroot = \"site\"\n", to: "dppx.toml")
        try scenario.write("<!doctype html><p>home</p>", to: "site/index.html")
        let server = try await ServeProcess(["--watch"], in: scenario.root)
        #expect(scenario.read("site/img/\(Manifest.fileName)") != nil, "\(server.log())")
        let port = server.port
        let logo = try await offPool { try RawHTTPConnection.get(port: port, path: "/img/icons/logo.png", headers: ["Sec-CH-DPR": "2"]) }
        #expect(logo.header("Content-DPR") == "2", "\(logo.headers)")
        #expect(logo.header("Content-Location")?.hasSuffix("img/icons/logo@2x.png") == true)
        #expect(try await server.interrupt() == 0)
    }

    @Test("flags override the file for one run")
    func flagsOverride() async throws {
        let scenario = try Self.scenario()
        let result = try await scenario.dppx("build", "--densities", "1", "--out", "other")
        #expect(result.status == 0, "\(result)")
        #expect(try manifest(scenario, "other").images.first { $0.source == "hero@2x.jpg" }?.densities == [Density(1)])
        #expect(scenario.read("public/\(Manifest.fileName)") == nil)
        let boxless = try await scenario.dppx("css", "other")
        #expect(boxless.status == 0 && !boxless.stdout.contains("width:"), "box = false in the file: \(boxless)")
        let boxed = try await scenario.dppx("css", "other", "--box")
        #expect(boxed.stdout.contains("width: 400px;"), "--box overrides it: \(boxed)")
    }

    @Test("the file is found from a subfolder, its paths relative to it; --config names another")
    func found() async throws {
        let scenario = try Self.scenario()
        let nested = try await DPPXBinary.run(["build", "--quiet"], in: scenario.scratch("src/icons"))
        #expect(nested.status == 0, "\(nested)")
        #expect(scenario.read("public/\(Manifest.fileName)") != nil)
        try scenario.write("[build]\nsource = \"../src\"\nout = \"elsewhere\"\n", to: "config/other.toml")
        let configured = try await scenario.dppx("build", "--config", "config/other.toml", "--allow-outside-project", "--quiet")
        #expect(configured.status == 0, "\(configured)")
        #expect(scenario.read("config/elsewhere/\(Manifest.fileName)") != nil, "paths are relative to the file's folder")
    }

    @Test("a bad file stops every command with exit 2, naming the file, the line, the key and what is allowed")
    func errors() async throws {
        let scenario = try RenderScenario()
        try scenario.write("[build]\nsource = \"src\"\nquality = 101\n", to: "dppx.toml")
        for command in [["build"], ["css"], ["html"], ["serve", "--watch"]] {
            let result = try await scenario.dppx(arguments: command)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("dppx.toml:3: build.quality must be between 1 and 100, e.g. quality = 80; got 101"), "\(result)")
        }
    }

    @Test("[rewrite] browser in the file is refused by rewrite, build and serve, naming the key; --browser and DPPX_BROWSER choose the program")
    func browserNotFromFile() async throws {
        let scenario = try RenderScenario(svg: false)
        // A committed script that would run as the user: it leaves a mark when it does.
        let mark = scenario.scratch("ran")
        try scenario.write("#!/bin/sh\ntouch '\(mark)'\nexit 1\n", to: "tools/chromium")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scenario.scratch("tools/chromium"))
        try scenario.write("<!doctype html><img src=\"hero.jpg\">", to: "public/index.html")
        try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\n[rewrite]\npages = [\"public/*.html\"]\nbrowser = \"tools/chromium\"\n", to: "dppx.toml")
        // (dppx measure reads no project file.)
        for command in [["build"], ["rewrite"], ["serve"]] {
            let result = try await scenario.dppx(arguments: command)
            #expect(result.status == 2, "\(command): \(result)")
            #expect(result.stderr.contains("dppx.toml:6: rewrite.browser is not read from the project file") && result.stderr.contains("--browser PATH")
                    && result.stderr.contains("DPPX_BROWSER"), "\(command): \(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: mark), "the repository's program never ran")

        // The user's own choice: on the command line, or in the environment.
        try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\n[rewrite]\npages = [\"public/*.html\"]\n", to: "dppx.toml")
        let flagged = try await scenario.dppx("rewrite", "--browser", scenario.scratch("tools/chromium"))
        #expect(FileManager.default.fileExists(atPath: mark), "--browser runs the program named: \(flagged)")
        try FileManager.default.removeItem(atPath: mark)
        try scenario.write("<!doctype html><p>not measured yet", to: "public/other.html")
        let environment = try await scenario.dppx(arguments: ["measure", "public"], environment: ["DPPX_BROWSER": scenario.scratch("tools/chromium")])
        #expect(FileManager.default.fileExists(atPath: mark), "DPPX_BROWSER runs the program named: \(environment)")
        let missing = try await scenario.dppx(arguments: ["measure", "public"], environment: ["DPPX_BROWSER": scenario.scratch("nowhere")])
        #expect(missing.status == 2 && missing.stderr.contains("DPPX_BROWSER=\(scenario.scratch("nowhere")) (from the environment) is not an executable file"), "\(missing)")
    }

    @Test("the file may lower the limits that protect the user, not raise them: max-pixels, max-frames, max-scans, idle-timeout; the command line raises them")
    func limitsOnlyLowered() async throws {
        let scenario = try RenderScenario(masters: ["hero.jpg": (400, 250)], svg: false)
        let cases: [(table: String, key: String, value: Int, maximum: Int, command: [String])] = [
            ("build", "max-pixels", Int.max, 100_000_000, ["build"]),
            ("build", "max-frames", 1_000_000, 1000, ["build"]),
            ("build", "max-scans", 100_000, 100, ["build"]),
            ("serve", "idle-timeout", 86_400, 30, ["serve", "public"]),
        ]
        for (table, key, value, maximum, command) in cases {
            try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\n\(table == "build" ? "" : "[\(table)]")\n\(key) = \(value)\n", to: "dppx.toml")
            let refused = try await scenario.dppx(arguments: command)
            #expect(refused.status == 2, "\(key): \(refused)")
            #expect(refused.stderr.contains("dppx.toml:5: \(table).\(key) is a limit that protects you") && refused.stderr.contains("at most \(maximum) (the default)")
                    && refused.stderr.contains("pass --\(key) \(value) on the command line"), "\(refused)")
        }
        // Lowered in the file: it holds (a 100 000-pixel master over a 50 000 limit is refused, naming the flag).
        try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\nmax-pixels = 50000\n", to: "dppx.toml")
        let lowered = try await scenario.dppx("build", "--quiet")
        #expect(lowered.status == 1 && lowered.stderr.contains("hero.jpg") && lowered.stderr.contains("--max-pixels"), "\(lowered)")
        // Raised on the command line: the user's own choice.
        try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\n", to: "dppx.toml")
        let raised = try await scenario.dppx("build", "--quiet", "--max-pixels", "200000000")
        #expect(raised.status == 0, "\(raised)")
    }

    @Test("[serve] host beyond loopback from the file prints one line saying so; --host says it without the line")
    func hostFromFile() async throws {
        let scenario = try RenderScenario(svg: false)
        try scenario.write("<!doctype html><p>home</p>", to: "public/index.html")
        /// The lines a `dppx serve` with `arguments` printed until it was serving.
        func started(_ arguments: [String]) async throws -> String {
            let child = try LoggedProcess(["serve"] + arguments + ["--port", "0"], in: scenario.root)
            let log = try await offPool { () -> String in
                let deadline = Date().addingTimeInterval(30)
                while Date() < deadline, !child.log().contains("(Ctrl-C stops)") { usleep(50_000) }
                return child.log()
            }
            #expect(try await child.interrupt() == 0, "\(log)")
            #expect(log.contains("(Ctrl-C stops)"), "\(log)")
            return log
        }
        try scenario.write("[serve]\nroot = \"public\"\nhost = \"0.0.0.0\"\n", to: "dppx.toml")
        let fromFile = try await started([])
        let warnings = fromFile.split(separator: "\n").filter { $0.contains("serve.host") }
        #expect(warnings.count == 1 && warnings[0].contains("dppx.toml: serve.host = \"0.0.0.0\" makes this server reachable from other machines"), "\(fromFile)")
        #expect(fromFile.contains("at http://0.0.0.0:"), "the file's host is still used: \(fromFile)")
        #expect(!(try await started(["--host", "0.0.0.0"])).contains("serve.host"), "the user's own flag needs no warning")
        try scenario.write("[serve]\nroot = \"public\"\nhost = \"127.0.0.1\"\n", to: "dppx.toml")
        #expect(!(try await started([])).contains("serve.host"))
    }

    @Test("arrays 50 000 deep in the file (100 KB) stop the command at their line rather than overflow the stack")
    func deepNesting() async throws {
        let scenario = try RenderScenario(svg: false)
        let deep = String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000)
        try scenario.write("[build]\nsource = \"src\"\ndensities = \(deep)\n", to: "dppx.toml")
        let result = try await scenario.dppx("build")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("dppx.toml:3: densities has arrays nested deeper than"), "\(result)")
    }

    @Test("paths in the file must lead inside its folder (links resolved), naming the key; the command line and --allow-outside-project may go elsewhere")
    func confinedPaths() async throws {
        let scenario = try RenderScenario(svg: false)
        let outside = ScratchFolder("dppx-outside")
        try FileManager.default.createDirectory(atPath: outside.path, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("linked"), withDestinationPath: outside.path)
        let victim = outside("victim.txt")
        try "keep me".write(toFile: victim, atomically: true, encoding: .utf8)
        let cases: [(file: String, line: Int, key: String)] = [
            ("[build]\nsource = \"src\"\nout = \"public\"\n[css]\nfile = \"\(victim)\"\n", 5, "css.file"),
            ("[build]\nsource = \"src\"\nout = \"../\((outside.path as NSString).lastPathComponent)/out\"\n", 3, "build.out"),
            ("[build]\nsource = \"src\"\nout = \"linked/out\"\n", 3, "build.out"),
            ("[build]\nsource = \"src\"\nout = \"public\"\n[rewrite]\npages = [\"site/*.html\", \"../**/*.html\"]\n", 5, "rewrite.pages"),
            ("[build]\nsource = \"src\"\nout = \"public\"\n[rewrite]\npages = \"site/*.html\"\nroot = \"/etc\"\n", 6, "rewrite.root"),
        ]
        for (file, line, key) in cases {
            try scenario.write(file, to: "dppx.toml")
            let refused = try await scenario.dppx("build", "--quiet")
            #expect(refused.status == 2, "\(file): \(refused)")
            #expect(refused.stderr.contains("dppx.toml:\(line): \(key) must lead inside the project folder") && refused.stderr.contains("--allow-outside-project"),
                    "\(refused)")
        }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: outside("out")), "nothing was written outside the project")

        // The same path given on the command line is the user's own; the flag allows the file's.
        try scenario.write("[build]\nsource = \"src\"\nout = \"linked/out\"\n", to: "dppx.toml")
        let flagged = try await scenario.dppx("build", "--quiet", "--allow-outside-project")
        #expect(flagged.status == 0 && FileManager.default.fileExists(atPath: outside("out/\(Manifest.fileName)")), "\(flagged)")
        try scenario.write("[build]\nsource = \"src\"\n", to: "dppx.toml")
        let given = try await scenario.dppx("build", "--quiet", "--out", outside("given"))
        #expect(given.status == 0 && FileManager.default.fileExists(atPath: outside("given/\(Manifest.fileName)")), "\(given)")
    }

    @Test("a master in SRC that is a link to a file outside SRC is not built, with a warning naming the link, unless --allow-outside-project")
    func linksOutOfSource() async throws {
        let scenario = try RenderScenario(masters: ["hero@2x.jpg": (400, 250)], svg: false)
        try TestImages.write(scenario.scratch("private/secret.jpg"), width: 40, height: 30)
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("src/stolen.jpg"), withDestinationPath: scenario.scratch("private/secret.jpg"))
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("src/again.jpg"), withDestinationPath: "hero@2x.jpg")
        let refused = try await scenario.dppx("build", "src", "--out", "public")
        #expect(refused.status == 0, "\(refused)")
        #expect(refused.stderr.contains("stolen.jpg: a link to") && refused.stderr.contains("outside the source folder") && refused.stderr.contains("--allow-outside-project"),
                "\(refused)")
        #expect(try manifest(scenario).images.map(\.source) == ["again.jpg", "hero@2x.jpg"], "a link inside SRC is built as before")
        #expect(!FileManager.default.fileExists(atPath: scenario.scratch("public/stolen.jpg")))
        let allowed = try await scenario.dppx("build", "src", "--out", "public", "--allow-outside-project", "--quiet")
        #expect(allowed.status == 0, "\(allowed)")
        #expect(try manifest(scenario).images.map(\.source).contains("stolen.jpg"))
    }

    @Test("--fail-on and [build] fail-on: a JPEG with extraneous bytes builds by default, is refused at warning (flag over file), a bad level names the flag")
    func failOn() async throws {
        let scenario = try RenderScenario(masters: ["hero.jpg": (400, 250)], svg: false)
        let good = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scenario.scratch("src/hero.jpg"))))
        // "Corrupt JPEG data: 4 extraneous bytes before marker 0xdb", as some cameras write.
        let table = try #require(JPEGMarkerSearch.firstSegment(0xDB, in: good))
        try TestImages.writeBytes(Array(good.prefix(table)) + [0, 0, 0, 0] + Array(good.dropFirst(table)), to: scenario.scratch("src/hero.jpg"))

        let byDefault = try await scenario.dppx("build", "src", "--out", "default", "--quiet")
        #expect(byDefault.status == 0, "\(byDefault)")
        let strict = try await scenario.dppx("build", "src", "--out", "strict", "--fail-on", "warning")
        #expect(strict.status == 1 && strict.stderr.contains("hero.jpg") && strict.stderr.contains("extraneous bytes"), "\(strict)")

        try scenario.write("[build]\nfail-on = \"warning\"\n", to: "dppx.toml")
        let fromFile = try await scenario.dppx("build", "src", "--out", "file", "--quiet")
        #expect(fromFile.status == 1 && fromFile.stderr.contains("hero.jpg"), "\(fromFile)")
        let flagWins = try await scenario.dppx("build", "src", "--out", "flag", "--quiet", "--fail-on", "error")
        #expect(flagWins.status == 0, "\(flagWins)")

        let bad = try await scenario.dppx("build", "src", "--out", "bad", "--fail-on", "sometimes")
        #expect(bad.status == 2, "\(bad)")
        #expect(bad.stderr.contains("--fail-on") && bad.stderr.contains("sometimes"), "\(bad)")
    }
}

/// The offset of a JPEG's first segment with a marker, walking the segments from SOI.
enum JPEGMarkerSearch {
    static func firstSegment(_ marker: UInt8, in bytes: [UInt8]) -> Int? {
        var index = 2
        while index + 3 < bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xDA {
            if bytes[index + 1] == marker { return index }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
        }
        return nil
    }
}
