import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// dppx dropped into an existing site: messages that say what to type, class names without the
/// site's folders, stylesheets and markup for some images only.
@Suite("dppx on a real site's layout (end to end)", .serialized)
struct SiteLayoutCommandTests {
    @Test("dppx build SRC OUT suggests --out OUT")
    func outWithoutFlag() async throws {
        let scenario = try RenderScenario()
        let result = try await scenario.dppx("build", "src", "site")
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains("did you mean --out site?"), "\(result)")
    }

    @Test("dppx build says once how many masters stated no density, what it did with them and how to state more")
    func defaultDensityNote() async throws {
        let scenario = try RenderScenario(masters: ["hero.jpg": (800, 500), "icons/logo@3x.png": (96, 96)])
        let result = try await scenario.dppx("build", "src", "--out", "public")
        #expect(result.status == 0, "\(result)")
        let notes = result.stdout.split(separator: "\n").filter { $0.hasPrefix("note:") }
        #expect(notes.count == 1, "\(result)")
        #expect(notes.first?.contains("1 master (such as hero.jpg) states no density: kept at its own size under the plain name, with smaller copies by width for srcset") == true, "\(result)")
        #expect(notes.first?.contains("--source-density") == true)
        let given = try await scenario.dppx("build", "src", "--out", "public", "--source-density", "2")
        #expect(!given.stdout.contains("note:"), "an explicit --source-density is intent: \(given)")
        #expect(try Manifest.decode(Array(try #require(scenario.read("public/\(Manifest.fileName)")).utf8))
            .images.first { $0.source == "hero.jpg" }?.intent == .option)
    }

    @Test("the build summary counts the files in SRC that are not images, with one example")
    func skippedFiles() async throws {
        let scenario = try RenderScenario()
        try scenario.write("a note", to: "src/notes.txt")
        try scenario.write("cache", to: "src/icons/Thumbs.db")
        let result = try await scenario.dppx("build", "src", "--out", "public")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("2 other files skipped (not images dppx reads, such as icons/Thumbs.db)"), "\(result)")
        let json = try await scenario.dppx("build", "src", "--out", "public", "--json")
        #expect(json.stdout.contains("\"skipped\" : [\n    \"icons/Thumbs.db\",\n    \"notes.txt\"\n  ]"), "\(json)")
    }

    @Test("dppx css on a site whose manifest is in a subfolder names that manifest")
    func nestedManifest() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(into: "site/assets/img")
        try scenario.write("<!doctype html>", to: "site/index.html")
        let result = try await scenario.dppx("css", "site")
        #expect(result.status == 2, "the wrong folder is wrong usage: \(result)")
        #expect(result.stderr.contains("site/assets/img/dppx-manifest.json"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one line, not one per variant: \(result)")
    }

    @Test("dppx css on a site finds a nested manifest as deep as dppx serve and dppx rewrite do")
    func deeplyNestedManifest() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(into: "site/static/v2/assets/images/photos/web")
        let result = try await scenario.dppx("css", "site")
        #expect(result.status == 2, "the wrong folder is wrong usage: \(result)")
        #expect(result.stderr.contains("site/static/v2/assets/images/photos/web/dppx-manifest.json"), "\(result)")
    }

    @Test("dppx css on a built folder without its manifest says so in one line")
    func builtWithoutManifest() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(into: "public")
        try FileManager.default.removeItem(atPath: scenario.scratch("public/\(Manifest.fileName)"))
        let result = try await scenario.dppx("css", "public")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("looks like a folder 'dppx build' wrote"), "\(result)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
    }

    @Test("dppx css PATHS writes the rules of those images only")
    func someImages() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let result = try await scenario.dppx("css", "public", "hero.jpg")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(".img-hero {") && !result.stdout.contains(".img-icons-logo") && !result.stdout.contains(".img-vector"))
        let unknown = try await scenario.dppx("css", "public", "nope.jpg")
        #expect(unknown.status == 1 && unknown.stderr.contains("nope.jpg: no such image"), "\(unknown)")
    }

    @Test("--strip leaves the site's folders out of class names; with --prefix it replaces them")
    func strip() async throws {
        let scenario = try RenderScenario(masters: ["assets/img/hero.jpg": (800, 500)], svg: false)
        try await scenario.build()
        let stripped = try await scenario.dppx("css", "public", "--strip", "assets/img")
        #expect(stripped.stdout.contains(".img-hero {"), "\(stripped)")
        let replaced = try await scenario.dppx("css", "public", "--strip", "assets/img/", "--prefix", "pic-")
        #expect(replaced.stdout.contains(".pic-hero {") && replaced.stdout.contains("url(\"assets/img/hero.jpg\")"), "\(replaced)")
        let bare = try await scenario.dppx("css", "public", "--strip", "assets/img/", "--prefix", "")
        #expect(bare.status == 0 && bare.stdout.contains("\n.hero {"), "--prefix '' gives the bare names back: \(bare)")
    }
}
