import DPPXBuild
import DPPXCore
@testable import DPPXServer
import DPPXTestSupport
import Foundation
import Logging
import Testing

/// `dppx serve --watch SRC`: the first build, rebuilds of added, changed and removed masters,
/// the stylesheet, live reload over server-sent events, and build errors that leave the
/// server running. Real masters, real libvips, a real socket.
@Suite("dppx serve --watch (development mode)", .serialized)
struct ServeDevelopmentTests {
    struct Site {
        let scratch = ScratchFolder("dppx-dev")
        var source: String { scratch("src") }
        var root: String { scratch("public") }
        var stylesheet: String { scratch("public/site.css") }

        func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: scratch(relative)) }

        func server(watch: Bool) -> ImageServer {
            var logger = Logger(label: "dppx.test")
            logger.logLevel = .critical
            let development = watch ? DevelopmentOptions(
                build: BuildOptions(sourceRoot: source, outputRoot: root, plan: PlanSettings(sourceDensityGiven: true), jobs: 1,
                                    cacheDirectory: scratch("cache")),
                pollInterval: .milliseconds(50), settleDelay: .milliseconds(50), stylesheet: StylesheetTarget(path: stylesheet)) : nil
            return ImageServer(options: ServerOptions(root: root, port: 0, manifestRecheckInterval: .zero, development: development),
                               logger: logger, accessLog: nil)
        }
    }

    static func makeSite() throws -> Site {
        let site = Site()
        try TestImages.write(site.scratch("src/hero.jpg"), width: 200, height: 100)
        try FileManager.default.createDirectory(atPath: site.root, withIntermediateDirectories: true)
        try "<!doctype html><html><body><h1>page</h1></body></html>\n".write(toFile: site.scratch("public/index.html"), atomically: true, encoding: .utf8)
        return site
    }

    @Test("the first build runs before serving; HTML gets the reload script; a new master rebuilds, rewrites the CSS and reloads pages")
    func rebuildAndReload() async throws {
        let site = try Self.makeSite()
        let running = try await site.server(watch: true).start()
        defer { Task { try? await running.shutdown() } }
        #expect(site.exists("public/hero@2x.jpg"), "the first build ran before the server listened")
        #expect(try String(contentsOfFile: site.stylesheet, encoding: .utf8).contains(".img-hero {"))

        let page = try await RawHTTPConnection(port: running.port).request("/")
        #expect(page.text.contains(LiveReloadScript.tag), "dev mode injects the reload script: \(page.text)")
        #expect(page.header("Cache-Control") == "no-store")
        let script = try await RawHTTPConnection(port: running.port).request(LiveReloadScript.path)
        #expect(script.status == 200 && script.text.contains("EventSource"))

        let events = try RawHTTPConnection(port: running.port, timeout: .seconds(20))
        try await events.send("GET \(LiveReloadScript.eventsPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let greeting = try await events.read(until: "\"sequence\":1")
        #expect(greeting.contains("text/event-stream"))
        #expect(greeting.contains("event: status"))

        try TestImages.write(site.scratch("src/new.jpg"), width: 60, height: 40)
        let afterAdd = try await events.read(until: "event: reload")
        #expect(afterAdd.contains("\"succeeded\":true"), "\(afterAdd)")
        #expect(site.exists("public/new.jpg") && site.exists("public/new@2x.jpg"))
        #expect(try String(contentsOfFile: site.stylesheet, encoding: .utf8).contains(".img-new {"))
        let image = try await RawHTTPConnection(port: running.port).request("/new.jpg", headers: ["Sec-CH-DPR": "2"])
        #expect(image.status == 200)
        #expect(image.header("Content-Location") == "/new@2x.jpg", "the server picks from the rebuilt manifest")

        try FileManager.default.removeItem(atPath: site.scratch("src/new.jpg"))
        _ = try await events.read(until: "event: reload")
        #expect(!site.exists("public/new.jpg") && !site.exists("public/new@2x.jpg"), "a removed master's outputs go")
        #expect(try !String(contentsOfFile: site.stylesheet, encoding: .utf8).contains(".img-new {"))
    }

    @Test("a broken master is reported on open pages and the server keeps serving the last good files")
    func buildErrorKeepsServing() async throws {
        let site = try Self.makeSite()
        let running = try await site.server(watch: true).start()
        defer { Task { try? await running.shutdown() } }
        let events = try RawHTTPConnection(port: running.port, timeout: .seconds(20))
        try await events.send("GET \(LiveReloadScript.eventsPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        _ = try await events.read(until: "\"sequence\":1")

        try TestImages.writeBytes(Array("not a picture at all".utf8), to: site.scratch("src/broken.jpg"))
        let status = try await events.read(until: "\"succeeded\":false")
        #expect(status.contains("broken.jpg"), "the failing file is named on the page: \(status)")
        let hero = try await RawHTTPConnection(port: running.port).request("/hero.jpg", headers: ["Sec-CH-DPR": "2"])
        #expect(hero.status == 200)
        #expect(hero.header("Content-Location") == "/hero@2x.jpg")
        let inspector = try await RawHTTPConnection(port: running.port).request("/_dppx/")
        #expect(inspector.text.contains("broken.jpg"), "the inspector shows the failure too")
    }

    @Test("live-reload streams are chunked (HTTP/1.1) or end with the connection (HTTP/1.0); a graceful shutdown ends them cleanly")
    func eventStreamsEndOnShutdown() async throws {
        let site = try Self.makeSite()
        let running = try await site.server(watch: true).start()
        let chunked = try RawHTTPConnection(port: running.port, timeout: .seconds(20))
        try await chunked.send("GET \(LiveReloadScript.eventsPath) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let greeting = try await chunked.read(until: "\"sequence\":1")
        #expect(greeting.contains("Transfer-Encoding: chunked") && !greeting.contains("Content-Length"), "\(greeting)")
        let plain = try RawHTTPConnection(port: running.port, timeout: .seconds(20))
        try await plain.send("GET \(LiveReloadScript.eventsPath) HTTP/1.0\r\n\r\n")
        let plainGreeting = try await plain.read(until: "\"sequence\":1")
        #expect(plainGreeting.contains("Connection: close") && !plainGreeting.contains("Transfer-Encoding"), "\(plainGreeting)")
        try await running.shutdown()
        _ = try await chunked.read(until: "0\r\n\r\n")
        #expect(await chunked.isClosedByServer())
        #expect(await plain.isClosedByServer())
    }

    @Test("without --watch, pages are served as they are")
    func noInjectionInProduction() async throws {
        let site = try Self.makeSite()
        let running = try await site.server(watch: false).start()
        let page = try await RawHTTPConnection(port: running.port).request("/")
        try await running.shutdown()
        #expect(page.status == 200)
        #expect(!page.text.contains(LiveReloadScript.tag))
    }
}
