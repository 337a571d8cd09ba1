import DPPXTestSupport
import Foundation
import Testing

/// `dppx rewrite` after rebuilds that remove files: the markup an earlier run wrote is
/// replaced (never left pointing at deleted files), `--check` names the page until then, and a
/// symbolic link to a page stays a link.
@Suite("dppx rewrite after a rebuild (end to end)", .serialized)
struct RewriteRebuildCommandTests {
    static let page = #"<!doctype html><title>Home</title><img src="img/logo.png" alt="Logo"><img src="img/hero.jpg" alt=""><img src="img/photo.jpg" width="600" alt="">"#
    static let stylesheet = ".hero {\n  background: linear-gradient(#0008, #0008), url(../img/hero.jpg) center / cover;\n}\n"

    /// The files `text` (at `relative`, under the scratch folder) names that do not exist.
    static func missingFiles(in text: String, at relative: String, of scenario: RenderScenario) throws -> [String] {
        let folder = (relative as NSString).deletingLastPathComponent
        let names = try Regex(#"[A-Za-z0-9_./@-]+\.(?:png|jpg|webp|avif)"#)
        return text.matches(of: names).map { String(text[$0.range]) }.filter { name in
            !FileManager.default.fileExists(atPath: scenario.scratch(((folder as NSString).appendingPathComponent(name) as NSString).standardizingPath))
        }
    }

    @Test("a rebuild with another width ladder, fewer densities and without AVIF: the old srcset, <source> and image-set() are replaced")
    func rebuildThatRemovesFiles() async throws {
        let scenario = try RenderScenario(masters: ["logo@2x.png": (120, 80), "hero@2x.jpg": (800, 600), "photo.jpg": (778, 519)], svg: false)
        try await scenario.build(into: "site/img", ["--densities", "1,1.5,2", "--formats", "webp,avif"])
        try scenario.write(Self.page, to: "site/index.html")
        try scenario.write(Self.stylesheet, to: "site/css/site.css")
        let pages = ["site/index.html", "site/css/site.css", "--root", "site", "--picture"]
        let first = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages)
        #expect(first.status == 0, "\(first)")
        let before = try #require(scenario.read("site/index.html"))
        #expect(before.contains("img/logo@1.5x.png 1.5x") && before.contains(#"type="image/avif""#), "\(before)")
        #expect(scenario.read("site/css/site.css")?.contains("hero.avif") == true)

        // Another master size (another width ladder), densities 1 and 2, WebP only.
        try TestImages.write(scenario.scratch("src/photo.jpg"), width: 740, height: 494)
        try await scenario.build(into: "site/img", ["--densities", "1,2", "--formats", "webp"])
        #expect(try Self.missingFiles(in: before, at: "site/index.html", of: scenario).isEmpty == false, "the rebuild removed files the page names")
        let check = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--check"])
        #expect(check.status == 1, "\(check)")
        #expect(check.stderr.contains("site/index.html is stale") && check.stderr.contains("site/css/site.css is stale"), "\(check.stderr)")

        let second = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages)
        #expect(second.status == 0 && !second.stderr.contains("of its own") && !second.stderr.contains("not dppx's"), "\(second)")
        let after = try #require(scenario.read("site/index.html"))
        let css = try #require(scenario.read("site/css/site.css"))
        #expect(try Self.missingFiles(in: after, at: "site/index.html", of: scenario) == [], "\(after)")
        #expect(try Self.missingFiles(in: css, at: "site/css/site.css", of: scenario) == [], "\(css)")
        #expect(!after.contains("avif") && !css.contains("avif"))
        #expect(css.components(separatedBy: "image-set(").count == 2, "updated in place, not a second one: \(css)")
        #expect(css.contains("background-image: linear-gradient(#0008, #0008), image-set("), "the overlay layer is kept: \(css)")

        // What a rewrite of the untouched page gives now.
        try scenario.write(Self.page, to: "site/fresh.html")
        _ = try await scenario.dppx("rewrite", "--no-measure", "site/fresh.html", "--root", "site", "--picture")
        #expect(scenario.read("site/fresh.html") == after)
        let clean = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--check"])
        #expect(clean.status == 0, "\(clean)")
    }

    @Test("a symbolic link to a page inside the root stays a link and the page it points to is rewritten; one leading outside is refused and named")
    func symbolicLinks() async throws {
        let scenario = try RenderScenario(masters: ["logo@2x.png": (120, 80)], svg: false)
        try await scenario.build(into: "site/img", ["--densities", "1,2"])
        try scenario.write(#"<img src="../img/logo.png">"#, to: "site/pages/real.html")
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("site/pages/linked.html"), withDestinationPath: "real.html")
        try scenario.write(#"<img src="img/logo.png">"#, to: "elsewhere/page.html")
        try FileManager.default.createSymbolicLink(atPath: scenario.scratch("site/outside.html"), withDestinationPath: "../elsewhere/page.html")

        let result = try await scenario.dppx("rewrite", "--no-measure", "site/pages/linked.html", "site/outside.html", "--root", "site")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("site/outside.html: is a symbolic link to ") && result.stderr.contains("elsewhere/page.html, outside the site's root site"), "\(result.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scenario.scratch("site/pages/linked.html")) == "real.html")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scenario.scratch("site/outside.html")) == "../elsewhere/page.html")
        #expect(scenario.read("site/pages/real.html") == #"<img src="../img/logo.png" srcset="../img/logo.png 1x, ../img/logo@2x.png 2x">"#)
        #expect(scenario.read("elsewhere/page.html") == #"<img src="img/logo.png">"#)
        let check = try await scenario.dppx("rewrite", "--no-measure", "site/pages/linked.html", "--root", "site", "--check")
        #expect(check.status == 0, "\(check)")
    }
}
