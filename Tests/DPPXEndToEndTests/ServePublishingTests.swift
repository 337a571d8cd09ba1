import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// What `dppx serve` publishes: the folder the project file names when ROOT is not given, and
/// never the project's private files, over a real socket.
@Suite("dppx serve: which folder, and what is never published (end to end)", .serialized)
struct ServePublishingTests {
    func get(_ server: ServeProcess, _ path: String) async throws -> RawHTTPConnection.Response {
        let port = server.port
        return try await offPool { try RawHTTPConnection.get(port: port, path: path, headers: [:]) }
    }

    /// A project that names its folders: masters in `src/`, built into `public/`.
    static func project(_ extra: String = "") async throws -> RenderScenario {
        let scenario = try RenderScenario(svg: false)
        try scenario.write("""
        [build]
        source = "src"
        out = "public"
        \(extra)
        """, to: "dppx.toml")
        let build = try await scenario.dppx("build", "--quiet")
        try #require(build.status == 0, "\(build)")
        try scenario.write("<!doctype html><p>public</p>", to: "public/index.html")
        try scenario.write("<!doctype html><p>site</p>", to: "site/index.html")
        try scenario.write("<!doctype html><p>served</p>", to: "served/index.html")
        return scenario
    }

    @Test("with no ROOT: [serve] root, else [rewrite] root, else [build] out")
    func rootFromProjectFile() async throws {
        let cases: [(extra: String, page: String)] = [
            ("", "public"),
            ("[rewrite]\nroot = \"site\"", "site"),
            ("[rewrite]\nroot = \"site\"\n[serve]\nroot = \"served\"", "served"),
        ]
        for (extra, page) in cases {
            let scenario = try await Self.project(extra)
            let server = try await ServeProcess([], in: scenario.root)
            let answer = try await get(server, "/")
            #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self).contains("<p>\(page)</p>"),
                    "\(extra.isEmpty ? "[build] out" : extra): \(answer.status) \(server.log())")
            #expect(try await server.interrupt() == 0)
        }
        // From a subfolder, the project file's paths are still its own folder's.
        let scenario = try await Self.project()
        try FileManager.default.createDirectory(atPath: scenario.scratch("src/deeper"), withIntermediateDirectories: true)
        let server = try await ServeProcess([], in: scenario.scratch("src/deeper"))
        let logo = try await get(server, "/icons/logo.png")
        #expect(logo.status == 200, "\(server.log())")
        #expect(try await server.interrupt() == 0)
    }

    @Test("dppx.toml, the masters under ROOT, .dppx-cache, dot-files and partial manifests answer 404; the rest is served")
    func privateFiles() async throws {
        let scenario = try await Self.project()
        let partial = PartialManifest.fileName(for: try #require(Shard(index: 1, of: 2)))
        try scenario.write("SECRET=1", to: ".env")
        try scenario.write("{}", to: "public/\(partial)")
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("public/settings.txt"), withDestinationPath: "../dppx.toml")
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("public/original.jpg"), withDestinationPath: "../src/hero@2x.jpg")
        let cache = try FileManager.default.contentsOfDirectory(atPath: scenario.scratch(".dppx-cache"))
        let cacheFile = try #require(cache.first, "the build keeps its cache in .dppx-cache")
        let server = try await ServeProcess(["."], in: scenario.root)
        for path in ["/dppx.toml", "/DPPX.TOML", "/src/hero@2x.jpg", "/src/icons/logo@3x.png", "/src/", "/.dppx-cache/\(cacheFile)",
                     "/.env", "/public/\(partial)",
                     "/public/settings.txt", "/public/original.jpg"] {
            let answer = try await get(server, path)
            #expect(answer.status == 404, "\(path): \(answer.status)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("[build]"), "\(path)")
        }
        for path in ["/public/index.html", "/public/hero.jpg", "/public/hero@2x.jpg", "/public/\(Manifest.fileName)"] {
            #expect(try await get(server, path).status == 200, "\(path)")
        }
        #expect(try await server.interrupt() == 0)
    }

    @Test("what dppx reads or writes for itself under ROOT answers 404: a --config file of another name and a link to it, the --access-log file, a --cache-dir that is not hidden")
    func ownFiles() async throws {
        let scenario = try RenderScenario(svg: false)
        try scenario.write("[build]\nsource = \"src\"\nout = \"public\"\n", to: "site.toml")
        try scenario.write("<!doctype html><p>home</p>", to: "index.html")
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("settings.txt"), withDestinationPath: "site.toml")
        try FileManager.default.createDirectory(atPath: scenario.scratch("logs"), withIntermediateDirectories: true)
        let server = try await ServeProcess([".", "--config", "site.toml", "--access-log", "logs/access.log", "--cache-dir", "cache", "--watch", "src"],
                                            in: scenario.root)
        let cached = try FileManager.default.contentsOfDirectory(atPath: scenario.scratch("cache")).filter { $0.hasSuffix(".json") }
        let cacheFile = try #require(cached.first, "the development build keeps its cache in --cache-dir: \(server.log())")
        #expect(try await get(server, "/index.html").status == 200)
        #expect(try await get(server, "/public/hero.jpg").status == 200)
        for path in ["/site.toml", "/SITE.TOML", "/settings.txt", "/logs/access.log", "/cache/\(cacheFile)", "/cache/"] {
            let answer = try await get(server, path)
            #expect(answer.status == 404, "\(path): \(answer.status)")
            let body = String(decoding: answer.body, as: UTF8.self)
            #expect(!body.contains("[build]") && !body.contains("GET /") && !body.contains("\"sources\""), "\(path): \(body.prefix(200))")
        }
        #expect(try await server.interrupt() == 0)
    }

    @Test("a ROOT or --watch SRC that does not exist is wrong usage: exit 2, as --help says")
    func missingRoot() async throws {
        let scenario = try RenderScenario(svg: false)
        let result = try await scenario.dppx("serve", "nowhere", "--port", "0")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("nowhere: no such folder"), "\(result)")
        let watching = try await scenario.dppx("serve", "public", "--watch", "nowhere", "--port", "0")
        #expect(watching.status == 2 && watching.stderr.contains("nowhere: no such file or folder"), "\(watching)")
        #expect(try await scenario.dppx("serve", "--help").stdout.contains("2 wrong usage"))
    }
}
