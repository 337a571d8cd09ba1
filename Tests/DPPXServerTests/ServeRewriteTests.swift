import DPPXBuild
import DPPXCore
import DPPXRewrite
@testable import DPPXServer
import DPPXTestSupport
import Foundation
import Logging
import HTTPTypes
import Hummingbird
import Testing

/// With `[rewrite]` configured, `dppx serve` answers pages and stylesheets as `dppx rewrite`
/// writes them, so a developer sees locally what the rewritten site will be.
@Suite("dppx serve rewrites pages with [rewrite]")
struct ServeRewriteTests {
    static let page = #"<!doctype html><html><body><IMG src="images/hero.jpg" alt=x><img src="/images/none.jpg"></body></html>"#
    static let rewritten = #"<!doctype html><html><body><IMG src="images/hero.jpg" alt=x srcset="images/hero.jpg 1x, images/hero@1.5x.jpg 1.5x, images/hero@2x.jpg 2x"><img src="/images/none.jpg"></body></html>"#

    @Test("HTML pages get srcset and stylesheets image-set(), sent whole and not stored; other files are untouched")
    func rewritesPages() async throws {
        let fixture = try ServerFixture()
        try fixture.write("index.html", Self.page)
        try fixture.write("style.css", ".hero { background: url(images/hero.jpg) }\n")
        try await fixture.server(rewrite: RewriteOptions()).test { client in
            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.text == Self.rewritten)
            #expect(page.headers[.contentLength] == String(Self.rewritten.utf8.count))
            #expect(page.headers[.cacheControl] == "no-store" && page.headers[.eTag] == nil)
            let head = try await client.get("/index.html", method: .head)
            #expect(head.headers[.contentLength] == String(Self.rewritten.utf8.count))
            let css = try await client.get("/style.css")
            #expect(css.text == #".hero { background: url(images/hero.jpg); background-image: image-set(url("images/hero.jpg") 1x, url("images/hero@1.5x.jpg") 1.5x, url("images/hero@2x.jpg") 2x) }"# + "\n")
            #expect(try await client.get("/app.js").text == "console.log('hi');\n")
            // Made once per version of the file: an edited page is made again.
            try fixture.write("index.html", Self.page.replacingOccurrences(of: "<body>", with: "<body><p>edited</p>"))
            let edited = try await client.get("/")
            #expect(edited.text == Self.rewritten.replacingOccurrences(of: "<body>", with: "<body><p>edited</p>"), "\(edited.text)")
        }
    }

    @Test("dev mode: the page built from is rewritten with the images just built, and gets the reload script")
    func developmentMode() async throws {
        let scratch = ScratchFolder("dppx-dev-rewrite")
        try TestImages.write(scratch("src/hero@2x.jpg"), width: 200, height: 100)
        try FileManager.default.createDirectory(atPath: scratch("public"), withIntermediateDirectories: true)
        try #"<!doctype html><html><body><img src="hero.jpg" alt=""></body></html>"#.write(toFile: scratch("public/index.html"), atomically: true, encoding: .utf8)
        var logger = Logger(label: "dppx.test")
        logger.logLevel = .critical
        var options = ServerOptions(root: scratch("public"), port: 0, manifestRecheckInterval: .zero, development: DevelopmentOptions(
            build: BuildOptions(sourceRoot: scratch("src"), outputRoot: scratch("public"), plan: PlanSettings(), jobs: 1, cacheDirectory: scratch("cache")),
            pollInterval: .milliseconds(50), settleDelay: .milliseconds(50)))
        options.rewrite = RewriteOptions()
        let running = try await ImageServer(options: options, logger: logger, accessLog: nil).start()
        defer { Task { try? await running.shutdown() } }
        let page = try await RawHTTPConnection(port: running.port).request("/")
        #expect(page.text.contains(#"<img src="hero.jpg" alt="" srcset="hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x">"#), "\(page.text)")
        #expect(page.text.contains(LiveReloadScript.tag))
        #expect(try String(contentsOfFile: scratch("public/index.html"), encoding: .utf8).contains("srcset") == false, "the file on disk is not changed")
    }

    @Test("a 1 MB page nested 200 000 deep is answered as it is, within seconds, and another page is answered meanwhile")
    func deeplyNestedPage() async throws {
        let fixture = try ServerFixture()
        let deep = "<!doctype html>" + String(repeating: "<div>", count: 200_000) + #"<img src="images/hero.jpg">"#
        try fixture.write("deep.html", deep)
        try fixture.write("index.html", Self.page)
        let running = try await fixture.server(rewrite: RewriteOptions()).start()
        defer { Task { try? await running.shutdown() } }
        let port = running.port
        let started = ContinuousClock.now
        async let deepAnswer = RawHTTPConnection(port: port, timeout: .seconds(20)).request("/deep.html")
        async let otherAnswer = RawHTTPConnection(port: port).request("/")
        let (page, other) = try await (deepAnswer, otherAnswer)
        #expect(page.status == 200 && page.text == deep, "the page unrewritten: \(page.status), \(page.body.count) bytes")
        #expect(other.text == Self.rewritten)
        #expect(ContinuousClock.now - started < .seconds(3), "\(ContinuousClock.now - started)")
    }

    @Test("without [rewrite] pages are served byte for byte")
    func leavesPagesAlone() async throws {
        let fixture = try ServerFixture()
        try fixture.write("index.html", Self.page)
        try await fixture.server().test { client in
            let page = try await client.get("/")
            #expect(page.text == Self.page)
            #expect(page.headers[.eTag] != nil)
        }
    }
}
