import DPPXTestSupport
import Foundation
import Testing

/// `dppx rewrite` on files: pages and stylesheets of a site rewritten in place or under
/// `--out`, `--check` for CI, `--depfile` for make, and `[rewrite] pages` run by `dppx build`;
/// from what the pages state (`--no-measure`): `MeasuredLayoutBrowserTests` measures.
@Suite("dppx rewrite (end to end)", .serialized)
struct RewriteCommandTests {
    /// `site/img/` holds logo@2x.png (a 60x40 box) and photo.jpg (778 px, fluid); two pages and
    /// a stylesheet use them.
    static func site() async throws -> RenderScenario {
        let scenario = try RenderScenario(masters: ["logo@2x.png": (120, 80), "photo.jpg": (778, 519)], svg: false)
        try await scenario.build(into: "site/img", ["--densities", "1,2"])
        try scenario.write(#"<!doctype html><title>Home</title><img src="img/logo.png" alt="Logo"><img src="img/photo.jpg" width="600" alt="">"#, to: "site/index.html")
        try scenario.write("<!doctype html>\r\n<IMG SRC='/img/logo.png'>\r\n<img src=\"../img/photo.jpg\">\r\n", to: "site/blog/post.html")
        try scenario.write(".logo {\n  background: url(../img/logo.png) no-repeat;\n}\n", to: "site/css/site.css")
        return scenario
    }

    static let rewrittenHome = #"<!doctype html><title>Home</title><img src="img/logo.png" alt="Logo" srcset="img/logo.png 1x, img/logo@2x.png 2x"><img src="img/photo.jpg" width="600" alt="" srcset="img/photo-322w.jpg 322w, img/photo-432w.jpg 432w, img/photo-580w.jpg 580w, img/photo.jpg 778w" sizes="600px">"#

    @Test("pages and stylesheets are rewritten in place; a second run changes nothing; --check names stale pages")
    func inPlace() async throws {
        let scenario = try await Self.site()
        let pages = ["site/index.html", "site/blog/post.html", "site/css/site.css"]
        let check = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--root", "site", "--check"])
        #expect(check.status == 1)
        for page in pages { #expect(check.stderr.contains("\(page) is stale"), "\(check.stderr)") }
        #expect(scenario.read("site/index.html")?.contains("srcset") == false, "--check writes nothing")

        let result = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--root", "site"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("rewrote 3 pages, 0 unchanged"), "\(result.stdout)")
        #expect(result.stderr.contains("blog/post.html:3: <img src=\"../img/photo.jpg\">: img/photo.jpg is fluid"), "\(result.stderr)")
        #expect(scenario.read("site/index.html") == Self.rewrittenHome)
        #expect(scenario.read("site/blog/post.html") == "<!doctype html>\r\n<IMG SRC='/img/logo.png' srcset=\"/img/logo.png 1x, /img/logo@2x.png 2x\">\r\n<img src=\"../img/photo.jpg\">\r\n")
        #expect(scenario.read("site/css/site.css") == ".logo {\n  background: url(../img/logo.png) no-repeat;\n  background-image: image-set(url(\"../img/logo.png\") 1x, url(\"../img/logo@2x.png\") 2x);\n}\n")

        try scenario.age("site/index.html")
        let before = scenario.modificationDate("site/index.html")
        let again = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--root", "site"])
        #expect(again.status == 0 && again.stdout.contains("rewrote 0 pages, 3 unchanged"), "\(again)")
        #expect(scenario.modificationDate("site/index.html") == before, "an unchanged page is not written")
        let clean = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--root", "site", "--check"])
        #expect(clean.status == 0, "\(clean)")

        // A rebuild with another density set: the srcset dppx wrote follows.
        try await scenario.build(into: "site/img", ["--densities", "1,1.5,2"])
        let stale = try await scenario.dppx(arguments: ["rewrite", "site/index.html", "--root", "site", "--check"])
        #expect(stale.status == 1 && stale.stderr.contains("site/index.html is stale"))
        _ = try await scenario.dppx(arguments: ["rewrite", "site/index.html", "--root", "site"])
        #expect(scenario.read("site/index.html")?.contains(#"srcset="img/logo.png 1x, img/logo@1.5x.png 1.5x, img/logo@2x.png 2x""#) == true)
    }

    @Test("a page nested 20 000 deep is named with its line and left byte for byte, in seconds; the other pages are rewritten; a <style> URL decoding to </style><script> stays inside the <style>")
    func hostilePages() async throws {
        let scenario = try await Self.site()
        let deep = "<!doctype html>\n" + String(repeating: "<div>", count: 20_000) + #"<img src="img/logo.png">"#
        try scenario.write(deep, to: "site/deep.html")
        try scenario.write(#"<!doctype html><style>.a{background:url("img/logo.png?\3c/style\3e\3cscript\3e alert(1)\3c/script\3e")}</style><p>after</p>"#,
                           to: "site/styled.html")
        let started = ContinuousClock.now
        let result = try await scenario.dppx("rewrite", "--no-measure", "site/deep.html", "site/index.html", "site/styled.html", "--root", "site")
        #expect(ContinuousClock.now - started < .seconds(10), "\(ContinuousClock.now - started)")
        #expect(result.status == 0 && result.stdout.contains("rewrote 2 pages"), "\(result)")
        #expect(result.stderr.contains("deep.html:2: the page nests elements more than 512 deep"), "\(result.stderr)")
        #expect(scenario.read("site/deep.html") == deep)
        #expect(scenario.read("site/index.html") == Self.rewrittenHome)
        let styled = try #require(scenario.read("site/styled.html"))
        #expect(styled.contains("image-set(") && !styled.contains("<script") && styled.hasSuffix("</style><p>after</p>"), "\(styled)")
    }

    @Test("a page's <style> and style attributes get image-set() as a stylesheet does; --check names the page until then; a second run changes nothing")
    func inlineStyles() async throws {
        let scenario = try await Self.site()
        try scenario.write("<!doctype html>\n<style>\n.logo {\n  background: url(img/logo.png) no-repeat;\n}\n</style>\n<p style=\"background-image: url(img/logo.png)\">Hi</p>\n<p style=\"background-image: url(img/photo.jpg)\">Fluid</p>\n", to: "site/styled.html")
        let check = try await scenario.dppx("rewrite", "--no-measure", "site/styled.html", "--root", "site", "--check")
        #expect(check.status == 1 && check.stderr.contains("site/styled.html is stale"), "\(check)")

        let result = try await scenario.dppx("rewrite", "--no-measure", "site/styled.html", "--root", "site")
        #expect(result.status == 0 && result.stdout.contains("rewrote 1 page, 0 unchanged (2 images with candidates)"), "\(result)")
        #expect(result.stderr.contains("styled.html:8: url(img/photo.jpg) is fluid"), "\(result.stderr)")
        #expect(scenario.read("site/styled.html") == "<!doctype html>\n<style>\n.logo {\n  background: url(img/logo.png) no-repeat;\n  background-image: image-set(url(\"img/logo.png\") 1x, url(\"img/logo@2x.png\") 2x);\n}\n</style>\n<p style=\"background-image: url(img/logo.png); background-image: image-set(url('img/logo.png') 1x, url('img/logo@2x.png') 2x)\">Hi</p>\n<p style=\"background-image: url(img/photo.jpg)\">Fluid</p>\n")

        let again = try await scenario.dppx("rewrite", "--no-measure", "site/styled.html", "--root", "site", "--check")
        #expect(again.status == 0, "\(again)")
    }

    @Test("--out writes under another folder at each page's path; --depfile lists the manifests; pages outside the root fail")
    func outAndDepfile() async throws {
        let scenario = try await Self.site()
        let result = try await scenario.dppx("rewrite", "--no-measure", "site/index.html", "site/blog/post.html", "--root", "site", "--out", "dist",
                                             "--depfile", "rewrite.d", "--sizes", "100vw", "--quiet")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(scenario.read("dist/index.html") == Self.rewrittenHome)
        #expect(scenario.read("dist/blog/post.html")?.contains(#"srcset="../img/photo-322w.jpg 322w, ../img/photo-432w.jpg 432w, ../img/photo-580w.jpg 580w, ../img/photo.jpg 778w" sizes="100vw""#) == true)
        #expect(scenario.read("site/index.html")?.contains("srcset") == false, "the source pages are untouched")
        let depfile = try #require(scenario.read("rewrite.d"))
        #expect(depfile.hasPrefix("dist/index.html dist/blog/post.html:"), "\(depfile)")
        #expect(depfile.contains("site/img/dppx-manifest.json") && depfile.contains("site/blog/post.html"))

        try scenario.write("<img src=x.png>", to: "elsewhere.html")
        let outside = try await scenario.dppx("rewrite", "--no-measure", "elsewhere.html", "--root", "site")
        #expect(outside.status == 1 && outside.stderr.contains("elsewhere.html: is not inside the site's root site"), "\(outside)")
        let usage = try await scenario.dppx("rewrite", "--no-measure", "--sizes", "\"")
        #expect(usage.status == 2 && usage.stderr.contains("--sizes"))
        let nothing = try await scenario.dppx("rewrite", "--no-measure")
        #expect(nothing.status == 2 && nothing.stderr.contains("[rewrite] pages"), "no pages and no project file: \(nothing)")
    }

    /// Masters in `src/` built into the site's `img/`, and the site's pages rewritten.
    static let projectFile = """
    [build]
    source = "src"
    out = "site/img"
    densities = [1, 2]

    [rewrite]
    pages = ["site/**/*.html"]
    root = "site"
    measure = false
    """

    @Test("[rewrite] pages in dppx.toml: dppx rewrite needs no arguments and dppx build rewrites them after the images")
    func projectFile() async throws {
        let scenario = try await Self.site()
        try scenario.write(Self.projectFile, to: "dppx.toml")
        let build = try await scenario.dppx("build")
        #expect(build.status == 0, "\(build)")
        #expect(build.stdout.contains("rewrote 2 pages"), "\(build.stdout)")
        #expect(scenario.read("site/index.html") == Self.rewrittenHome)
        #expect(scenario.read("site/css/site.css")?.contains("image-set") == false, "only the pages listed")
        let rewrite = try await scenario.dppx("rewrite", "--no-measure", "--check")
        #expect(rewrite.status == 0, "\(rewrite)")
    }

    @Test("what was left alone is said once: a rebuild that changed nothing says it in one line, --explain lists it, --quiet says errors only")
    func warningsOnce() async throws {
        let scenario = try await Self.site()
        try scenario.write(Self.projectFile, to: "dppx.toml")
        let fluid = #"blog/post.html:3: <img src="../img/photo.jpg">: img/photo.jpg is fluid"#
        let first = try await scenario.dppx("build")
        #expect(first.status == 0 && first.stderr.contains(fluid), "the build that rewrites the page says why: \(first)")
        for quiet in [[], ["--quiet"]] {
            let again = try await scenario.dppx(arguments: ["build"] + quiet)
            #expect(again.status == 0, "\(again)")
            #expect(!again.stderr.contains(fluid), "not said again: \(again.stderr)")
            let summary = again.stderr.split(separator: "\n").filter { $0.contains("image on unchanged pages left without candidates") }
            #expect(summary.count == (quiet.isEmpty ? 1 : 0), "one line, none with --quiet: \(again.stderr)")
            if quiet.isEmpty { #expect(summary.first?.contains("(such as blog/post.html:3); 'dppx rewrite --explain' lists it") == true, "\(again.stderr)") }
            if !quiet.isEmpty { #expect(again.stderr.isEmpty && again.stdout.isEmpty, "--quiet prints errors only: \(again)") }
        }
        let explain = try await scenario.dppx("rewrite", "--no-measure", "--explain")
        #expect(explain.status == 0 && explain.stderr.contains(fluid), "\(explain)")
        let plain = try await scenario.dppx("rewrite", "--no-measure")
        #expect(!plain.stderr.contains(fluid) && plain.stderr.contains("1 image on unchanged pages"), "\(plain)")
        // A page that changes is told in full again.
        try scenario.write("<!doctype html>\n<img src=\"/img/logo.png\">\n<img src=\"../img/photo.jpg\">\n", to: "site/blog/post.html")
        let changed = try await scenario.dppx("rewrite", "--no-measure")
        #expect(changed.stderr.contains(fluid) && !changed.stderr.contains("unchanged pages"), "\(changed)")
    }

    @Test("--placeholder color gives each rewritten <img> its colour as an inline style; an author's style is kept and reported")
    func placeholder() async throws {
        let scenario = try await Self.site()
        try scenario.write(#"<img src="img/logo.png"><img src="img/logo.png" style="width: 50%">"#, to: "site/styled.html")
        let pages = ["site/index.html", "site/styled.html"]
        let result = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--root", "site", "--placeholder", "color"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains(#"styled.html:1: <img src="img/logo.png">: has a style of its own"#), "\(result.stderr)")
        let home = try #require(scenario.read("site/index.html"))
        let colors = home.components(separatedBy: #" style="background-color: #"#)
        #expect(colors.count == 3, "both images get their colour: \(home)")
        #expect(colors.dropFirst().allSatisfy { $0.prefix(7).dropFirst(6) == "\"" && $0.prefix(6).allSatisfy(\.isHexDigit) }, "\(home)")
        #expect(scenario.read("site/styled.html")?.contains(#"style="width: 50%""#) == true)
        let again = try await scenario.dppx(arguments: ["rewrite", "--no-measure"] + pages + ["--root", "site", "--placeholder", "color", "--check"])
        #expect(again.status == 0, "a second run changes nothing: \(again)")
        let bad = try await scenario.dppx("rewrite", "--no-measure", "site/index.html", "--root", "site", "--placeholder", "thumbhash")
        #expect(bad.status == 2, "\(bad)")
    }
}
