import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx serve --watch` takes `dppx build`'s flags and `dppx css`'s stylesheet flags from the same
/// groups, so a development build writes what the production commands write.
@Suite("dppx serve --watch builds with the build's and the stylesheet's flags (end to end)", .serialized)
struct ServeWatchFlagsTests {
    /// Serves `out` in dev mode with `flags` until the first build is done, then stops it.
    func watchOnce(_ scenario: RenderScenario, into out: String, _ flags: [String]) async throws {
        let server = try await ServeProcess([out, "--watch", "src"] + flags, in: scenario.root)
        let status = try await server.interrupt()
        #expect(status == 0, "\(server.log())")
    }

    func manifest(_ scenario: RenderScenario, _ out: String) throws -> Manifest {
        try Manifest.decode(Array(try #require(scenario.read("\(out)/\(Manifest.fileName)")).utf8))
    }

    @Test("serve --watch SRC --quality 40 writes smaller JPEGs than the default quality")
    func quality() async throws {
        let scenario = try RenderScenario()
        try await watchOnce(scenario, into: "default", [])
        try await watchOnce(scenario, into: "low", ["--quality", "40"])
        let normal = try #require(try manifest(scenario, "default").images.first { $0.source == "hero@2x.jpg" })
        let low = try #require(try manifest(scenario, "low").images.first { $0.source == "hero@2x.jpg" })
        #expect(normal.variants.count == low.variants.count)
        for (a, b) in zip(normal.variants, low.variants) {
            #expect(b.bytes < a.bytes, "\(b.path) at quality 40 (\(b.bytes) bytes) is smaller than at 82 (\(a.bytes) bytes)")
        }
    }

    @Test("serve --watch --css --no-box --prefix writes exactly what dppx css writes, without box sizes")
    func stylesheet() async throws {
        let scenario = try RenderScenario()
        let flags = ["--no-box", "--prefix", "img-", "--legacy", "--base-url", "/img/"]
        try await watchOnce(scenario, into: "public", ["--css", "public/site.css"] + flags)
        let css = try #require(scenario.read("public/site.css"))
        #expect(css.contains(".img-hero {"), "\(css)")
        #expect(!css.contains("width:"), "a --no-box stylesheet stays without box sizes: \(css)")
        #expect(css.contains("url(\"/img/hero@2x.jpg\")"), "\(css)")
        let check = try await scenario.dppx(arguments: ["css", "public", "-o", "public/site.css", "--check"] + flags)
        #expect(check.status == 0, "dppx css with the same flags would write the same file: \(check)")
    }
}
