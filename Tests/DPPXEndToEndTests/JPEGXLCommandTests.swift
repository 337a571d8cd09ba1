import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `--formats jxl` and `--jxl-quality` through the real executable: build, css and html, from a
/// build and from masters.
@Suite("dppx with --formats jxl (end to end)")
struct JPEGXLCommandTests {
    @Test("build writes a .jxl beside every variant, lists them, and says once that the SVG gets none")
    func build() async throws {
        let scenario = try RenderScenario()
        let result = try await scenario.dppx("build", "src", "--out", "public", "--formats", "jxl")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.components(separatedBy: "no jxl variants").count == 2, "one warning, for vector.svg: \(result)")
        #expect(result.stderr.contains("vector.svg"))
        let manifest = try Manifest.decode(Array(try #require(FileManager.default.contents(atPath: scenario.scratch("public/" + Manifest.fileName)))))
        for image in manifest.images where !image.densityIndependent {
            let jxl = image.variants(in: .jxl)
            #expect(jxl.map(\.density) == image.variants(in: image.primaryFormat).map(\.density), "\(image.source)")
            for variant in jxl {
                #expect(FileManager.default.fileExists(atPath: scenario.scratch("public/" + variant.path)), "\(variant.path)")
                #expect(variant.bytes > 0)
            }
        }
    }

    @Test("css and html from masters and from the build give JXL its type, the build's by recorded bytes")
    func markup() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(["--formats", "jxl"])
        let fromMasters = try await scenario.dppx("css", "src", "--formats", "jxl")
        #expect(fromMasters.status == 0, "\(fromMasters)")
        #expect(fromMasters.stdout.contains(#"url("hero.jxl") type("image/jxl") 1x"#), "\(fromMasters.stdout)")
        let html = try await scenario.dppx("html", "public", "hero.jpg")
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout.contains(#"<source type="image/jxl" srcset="hero.jxl 1x, hero@1.5x.jxl 1.5x, hero@2x.jxl 2x">"#), "\(html.stdout)")
        let predicted = try await scenario.dppx("html", "src", "hero.jpg", "--formats", "jxl")
        #expect(predicted.stdout == html.stdout, "with one extra format the order cannot differ")
    }

    @Test("serve --watch --formats jxl builds the JXL variants, and --jxl-quality makes the PNG's lossy JXL smaller")
    func watch() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(into: "lossless", ["--formats", "jxl"])
        let server = try await ServeProcess(["watched", "--watch", "src", "--formats", "jxl", "--jxl-quality", "50"], in: scenario.root)
        #expect(try await server.interrupt() == 0, "\(server.log())")
        func jxl(_ out: String) throws -> [Manifest.Variant] {
            try Manifest.decode(Array(try #require(scenario.read("\(out)/\(Manifest.fileName)")).utf8))
                .images.flatMap { $0.variants(in: .jxl) }.sorted { $0.path < $1.path }
        }
        let watched = try jxl("watched"), lossless = try jxl("lossless")
        #expect(watched.map(\.path) == lossless.map(\.path) && !watched.isEmpty)
        for (lossy, exact) in zip(watched, lossless) where lossy.path.hasPrefix("icons/logo") {
            #expect(lossy.bytes < exact.bytes, "\(lossy.path): \(lossy.bytes) bytes at quality 50, \(exact.bytes) lossless")
        }
        for (recompressed, same) in zip(watched, lossless) where recompressed.path.hasPrefix("hero") {
            #expect(recompressed.hash == same.hash, "a JPEG's JXL is its lossless recompression whatever --jxl-quality says")
        }
    }

    @Test("--jxl-quality out of range is a usage error naming the flag")
    func badQuality() async throws {
        let scenario = try RenderScenario()
        let result = try await scenario.dppx("build", "src", "--out", "public", "--formats", "jxl", "--jxl-quality", "0")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("--jxl-quality must be between 1 and 100"), "\(result)")
    }
}
