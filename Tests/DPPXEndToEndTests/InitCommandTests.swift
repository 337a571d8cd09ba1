import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx init` on a site with its images under `site/assets/img/`, then the command it prints,
/// run as printed: the site's images built in place in AVIF and WebP, its page rewritten with
/// `<picture>`, its stylesheet's background given `image-set()`.
@Suite("dppx init: a project file for an existing site (end to end)", .serialized)
struct InitCommandTests {
    static func site() throws -> RenderScenario {
        let scenario = try RenderScenario(masters: [:], svg: false)
        try TestImages.write(scenario.scratch("site/assets/img/photo.jpg"), width: 480, height: 320)
        try TestImages.write(scenario.scratch("site/assets/img/banner@2x.jpg"), width: 320, height: 120, seed: 2)
        try scenario.write("""
        <!doctype html><html><head><link rel="stylesheet" href="assets/css/site.css"></head>
        <body><main style="width: 200px"><img src="assets/img/photo.jpg" alt="" style="width: 100%"></main><div class="banner"></div></body></html>
        """, to: "site/index.html")
        try scenario.write(".banner { width: 160px; height: 60px; background: url(../img/banner@2x.jpg) }\n", to: "site/assets/css/site.css")
        return scenario
    }

    @Test("writes dppx.toml, says why and what to run next; the next command builds AVIF and WebP in place and rewrites the page with <picture>")
    func initThenBuild() async throws {
        let scenario = try Self.site()
        let dry = try await scenario.dppx("init", "--dry-run")
        #expect(dry.status == 0, "\(dry)")
        #expect(scenario.read("dppx.toml") == nil, "--dry-run writes nothing")
        let initialized = try await scenario.dppx("init")
        #expect(initialized.status == 0, "\(initialized)")
        let file = try #require(scenario.read("dppx.toml"))
        #expect(dry.stdout == file, "--dry-run prints the file it would write")
        #expect(file.contains(#"source = "site/assets/img""#) && file.contains(#"out = "site/assets/img""#), "\(file)")
        #expect(file.contains(#"formats = ["avif", "webp"]"#) && file.contains("picture = true"), "\(file)")
        for key in ["quality", "webp-quality", "avif-quality"] { #expect(file.contains("\n\(key) = \"auto\""), "\(key): \(file)") }
        #expect(initialized.stdout.contains("images: site/assets/img holds the 2 images the pages name (1 only from stylesheets)"), "\(initialized)")
        let next = try #require(initialized.stdout.split(separator: "\n").last { $0.hasPrefix("next: ") })
        #expect(next == "next: dppx build")

        let arguments = next.dropFirst("next: dppx ".count).split(separator: " ").map(String.init)
        let built = try await scenario.dppx(arguments: arguments)
        #expect(built.status == 0, "\(built)")
        let manifest = try Manifest.decode(Array(try #require(scenario.read("site/assets/img/\(Manifest.fileName)")).utf8))
        #expect(manifest.images.map(\.source) == ["banner@2x.jpg", "photo.jpg"])
        for image in manifest.images {
            #expect(!image.variants(in: .avif).isEmpty, "\(image.source) has AVIF files: \(image.variants.map(\.path))")
        }
        #expect(FileManager.default.fileExists(atPath: scenario.scratch("site/assets/img/photo.jpg")), "the master stays")
        let page = try #require(scenario.read("site/index.html"))
        #expect(page.contains("<picture>") && page.contains(#"type="image/avif""#), "\(page)")
        let sheet = try #require(scenario.read("site/assets/css/site.css"))
        #expect(sheet.contains("image-set(") && sheet.contains(#"type("image/avif")"#), "\(sheet)")
        let costLine = try #require(built.stdout.split(separator: "\n").first { $0.hasPrefix("image bytes per page view, before -> after: phone ") },
                                    "\(built)")
        // The test images are noise, where WebP can come out smaller than AVIF: either is first.
        #expect(costLine.contains(", laptop ") && costLine.contains(", desktop ") && costLine.contains("; JPEG-only browsers "), "\(costLine)")

        // A second run builds nothing, and --json has the same per page and image.
        let json = try await scenario.dppx("build", "--json")
        #expect(json.status == 0, "\(json)")
        let summary = try JSONDecoder().decode(BuildSummary.self, from: Data(json.stdout.utf8))
        #expect(summary.built.isEmpty, "\(json.stdout)")
        let pageViews = try #require(summary.pageViews)
        #expect(pageViews.pages.map(\.path) == ["index.html"])
        #expect(pageViews.pages[0].images.map(\.kind) == [.img, .background])
        #expect(pageViews.totals.map(\.profile) == ["phone", "laptop", "desktop"])
        #expect(pageViews.totals.allSatisfy { $0.after < $0.before }, "\(pageViews.totals)")

        let again = try await scenario.dppx("init")
        #expect(again.status == 2, "\(again)")
        #expect(again.stderr.contains("dppx.toml already exists") && again.stderr.contains("never writes over"), "\(again)")
        #expect(scenario.read("dppx.toml") == file, "left as it was")
    }

    @Test("a folder without pages: exit 1, saying where to run it")
    func noPages() async throws {
        let scenario = try RenderScenario(masters: ["a.jpg": (40, 30)], svg: false)
        let result = try await scenario.dppx("init")
        #expect(result.status == 1 && result.stderr.contains("no *.html page"), "\(result)")
        #expect(scenario.read("dppx.toml") == nil)
    }
}

/// What `dppx build --json` prints, as far as these tests read it.
private struct BuildSummary: Decodable {
    let built: [String]
    let pageViews: PageViewCost?
}

