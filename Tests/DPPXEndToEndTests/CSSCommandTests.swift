import DPPXTestSupport
import Foundation
import Testing

@Suite("dppx css (end to end)", .serialized)
struct CSSCommandTests {
    @Test("the project file selects the images that get rules: [css] match, a rule's css = false; PATHS always get theirs")
    func selection() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        try scenario.write("[css]\nmatch = [\"*.jpg\", \"icons/**\"]\n[[rule]]\nmatch = \"icons/**\"\ncss = false\n", to: "dppx.toml")
        let selected = try await scenario.dppx("css", "public")
        #expect(selected.status == 0, "\(selected)")
        #expect(selected.stdout.contains(".img-hero {") && !selected.stdout.contains("logo") && !selected.stdout.contains("vector"), "\(selected.stdout)")
        let named = try await scenario.dppx("css", "public", "icons/logo@3x.png")
        #expect(named.stdout.contains(".img-icons-logo {"), "\(named)")
        let html = try await scenario.dppx("html", "public")
        #expect(html.stdout.contains("icons/logo.png") && html.stdout.contains("vector.svg"), "the markup keeps every image: \(html)")
    }

    @Test("prints the stylesheet of a built folder on stdout, URLs relative to it, nothing on stderr")
    func builtFolder() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let result = try await scenario.dppx("css", "public")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains(".img-hero {\n  background-image: url(\"hero.jpg\");\n  background-size: 400px 250px;\n  width: 400px;\n  height: 250px;\n}"))
        #expect(result.stdout.contains("@media (-webkit-min-device-pixel-ratio: 1.5), (min-resolution: 1.5dppx) {\n  .img-hero { background-image: url(\"hero@1.5x.jpg\"); }\n  .img-icons-logo { background-image: url(\"icons/logo@1.5x.png\"); }\n}"))
        #expect(result.stdout.contains(".img-vector {\n  background-image: url(\"vector.svg\");\n  background-size: 24px 24px;"))
        #expect(try await scenario.dppx("css", "public").stdout == result.stdout, "output must be byte-identical run to run")
    }

    @Test("a folder of masters gives exactly the CSS of the folder it builds into", arguments: [[String](), ["--formats", "webp,avif"], ["--densities", "1,2,3"]])
    func mastersMatchBuild(flags: [String]) async throws {
        let scenario = try RenderScenario()
        try await scenario.build(flags)
        let built = try await scenario.dppx(arguments: ["css", "public"])
        let predicted = try await scenario.dppx(arguments: ["css", "src"] + flags)
        #expect(built.status == 0, "\(built)")
        #expect(predicted.status == 0, "\(predicted)")
        #expect(predicted.stdout == built.stdout)
    }

    @Test("-o makes URLs relative to the stylesheet's folder; --image-dir points a masters folder at its build")
    func relativeURLs() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        #expect(try await scenario.dppx("css", "public", "-o", "public/css/images.css").status == 0)
        #expect(scenario.read("public/css/images.css")?.contains("url(\"../hero.jpg\")") == true)
        #expect(try await scenario.dppx("css", "public", "-o", "site.css").status == 0)
        #expect(scenario.read("site.css")?.contains("url(\"public/icons/logo@2x.png\")") == true)
        #expect(try await scenario.dppx("css", "src", "--image-dir", "public", "-o", "public/css/predicted.css").status == 0)
        #expect(scenario.read("public/css/predicted.css") == scenario.read("public/css/images.css"))
        let cdn = try await scenario.dppx("css", "public", "--base-url", "https://cdn.example.com/img/", "-o", "cdn.css")
        #expect(cdn.status == 0, "\(cdn)")
        #expect(scenario.read("cdn.css")?.contains("url(\"https://cdn.example.com/img/hero@2x.jpg\")") == true)
    }

    @Test("build --css writes what 'dppx css OUT -o FILE' writes, and leaves it alone when nothing changed")
    func buildWritesStylesheet() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(["--css", "public/css/site.css"])
        let written = try #require(scenario.read("public/css/site.css"), "build --css wrote no stylesheet")
        #expect(written.contains("url(\"../hero@2x.jpg\")"), "URLs are relative to the stylesheet's folder: \(written)")
        #expect(try await scenario.dppx("css", "public", "-o", "public/css/site.css", "--check").status == 0,
                "the file is exactly what dppx css would write")
        try scenario.age("public/css/site.css")
        let before = scenario.modificationDate("public/css/site.css")
        let again = try await scenario.dppx(arguments: ["build", "src", "--out", "public", "--css", "public/css/site.css"])
        #expect(again.status == 0, "\(again)")
        #expect(!again.stdout.contains("wrote public/css/site.css"), "\(again)")
        #expect(scenario.modificationDate("public/css/site.css") == before, "an unchanged stylesheet is not rewritten")

        let broken = try await scenario.dppx(arguments: ["build", "src", "--out", "public", "--css", "public/css/site.css", "--templates", "nowhere"])
        #expect(broken.status == 1, "\(broken)")
        #expect(broken.stderr.contains("public/css/site.css"), "the failure names the stylesheet: \(broken)")
    }

    @Test("-o rewrites the file only when its content changes")
    func writeIfChanged() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        #expect(try await scenario.dppx("css", "public", "-o", "out/images.css").status == 0)
        try scenario.age("out/images.css")
        let before = scenario.modificationDate("out/images.css")
        let again = try await scenario.dppx("css", "public", "-o", "out/images.css")
        #expect(again.status == 0 && again.stdout.isEmpty && again.stderr.isEmpty, "\(again)")
        #expect(scenario.modificationDate("out/images.css") == before)
        #expect(try await scenario.dppx("css", "public", "-o", "out/images.css", "--prefix", "pic-").status == 0)
        #expect(scenario.modificationDate("out/images.css") != before)
        #expect(scenario.read("out/images.css")?.contains(".pic-hero {") == true)
    }

    @Test("--check exits 1 naming the stale file, 0 when current, and writes nothing")
    func check() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let missing = try await scenario.dppx("css", "public", "-o", "images.css", "--check")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("images.css is stale: it does not exist"), "\(missing)")
        #expect(scenario.read("images.css") == nil)
        #expect(try await scenario.dppx("css", "public", "-o", "images.css").status == 0)
        let current = try await scenario.dppx("css", "public", "-o", "images.css", "--check")
        #expect(current.status == 0, "\(current)")
        #expect(current.stderr.isEmpty)
        try scenario.write((scenario.read("images.css") ?? "") + "/* edited */\n", to: "images.css")
        let edited = try await scenario.dppx("css", "public", "-o", "images.css", "--check")
        #expect(edited.status == 1)
        #expect(edited.stderr.contains("images.css is stale: it differs from what would be written, from line"), "\(edited)")
        #expect(scenario.read("images.css")?.hasSuffix("/* edited */\n") == true)
        let depfile = try await scenario.dppx("css", "public", "-o", "images.css", "--depfile", "images.css.d", "--check")
        #expect(depfile.stderr.contains("images.css.d is stale: it does not exist"), "\(depfile)")
    }

    @Test("--depfile lists the masters read (or the manifest), each with an empty rule")
    func depfile() async throws {
        let scenario = try RenderScenario()
        #expect(try await scenario.dppx("css", "src", "-o", "site.css", "--depfile", "site.css.d").status == 0)
        #expect(scenario.read("site.css.d") == """
        site.css: \\
          src/hero@2x.jpg \\
          src/icons/logo@3x.png \\
          src/vector.svg

        src/hero@2x.jpg:

        src/icons/logo@3x.png:

        src/vector.svg:

        """)
        try await scenario.build()
        #expect(try await scenario.dppx("css", "public", "-o", "site.css", "--depfile", "deps/site.css.d").status == 0)
        #expect(scenario.read("deps/site.css.d") == "site.css: \\\n  public/dppx-manifest.json\n\npublic/dppx-manifest.json:\n")
    }

    @Test("wrong flag combinations exit 2 with a message saying what to type", arguments: [
        (["css", "public", "--check"], "-o"),
        (["css", "public", "--depfile", "x.d"], "-o"),
        (["css", "public", "--prefix", ".img-"], "--prefix img-"),
        (["css", "public", "--prefix", "a b"], "spaces"),
        (["css", "public", "-o", "a.css", "--depfile", "a.css"], "a.css.d"),
        (["css", "public", "--densities", "1,x"], "--densities"),
        (["css", "public", "--base-url", " "], "--base-url"),
        (["css"], "DIR"),
    ])
    func usage(arguments: [String], hint: String) async throws {
        let scenario = try RenderScenario(masters: [:], svg: false)
        let result = try await scenario.dppx(arguments: arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr.contains(hint), "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test("two images with one selector: exit 1 naming both, nothing written")
    func collision() async throws {
        let scenario = try RenderScenario(masters: ["hero.jpg": (80, 50), "hero.png": (80, 50)], svg: false)
        let result = try await scenario.dppx("css", "src", "-o", "images.css")
        #expect(result.status == 1)
        #expect(result.stderr.contains("hero.jpg and hero.png would both get the selector .img-hero"), "\(result)")
        #expect(scenario.read("images.css") == nil)
    }

    @Test("a master that cannot be read is named, the others are still written, exit 1")
    func unreadableMaster() async throws {
        let scenario = try RenderScenario()
        try TestImages.writeBytes(Array("not an image".utf8), to: scenario.scratch("src/broken.jpg"))
        let result = try await scenario.dppx("css", "src", "-o", "images.css")
        #expect(result.status == 1)
        #expect(result.stderr.contains("broken.jpg"), "\(result)")
        #expect(scenario.read("images.css")?.contains("url(\"src/hero.jpg\")") == true)
        #expect(scenario.read("images.css")?.contains(".broken") == false)
    }

    @Test("a missing folder (exit 2, wrong usage) or a broken manifest (exit 1): the path and what to do")
    func badInput() async throws {
        let scenario = try RenderScenario(masters: [:], svg: false)
        let missing = try await scenario.dppx("css", "nowhere")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere: no such file or folder"), "\(missing)")
        try scenario.write("{", to: "built/dppx-manifest.json")
        let broken = try await scenario.dppx("css", "built")
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("built/dppx-manifest.json"), "\(broken)")
        #expect(broken.stderr.contains("rebuild"), "\(broken)")
    }

    @Test("--templates replaces templates file by file; a broken one is named with its line")
    func templates() async throws {
        let scenario = try RenderScenario()
        try scenario.write("{{%CONTENT_TYPE: TEXT}}\n{{selector}} { background: {{url}} 0 0 / {{width}}px {{height}}px no-repeat; }\n", to: "mine/rule.mustache")
        let custom = try await scenario.dppx("css", "src", "--templates", "mine")
        #expect(custom.status == 0, "\(custom)")
        #expect(custom.stdout.contains(".img-hero { background: url(\"hero.jpg\") 0 0 / 400px 250px no-repeat; }"))
        #expect(custom.stdout.contains("@media"), "the other templates still come from the defaults")
        try scenario.write("{{%CONTENT_TYPE: TEXT}}\n{{selector}} {\n  background: {{urll}};\n}\n", to: "broken/rule.mustache")
        let broken = try await scenario.dppx("css", "src", "--templates", "broken")
        #expect(broken.status == 1)
        #expect(broken.stderr.contains("broken/rule.mustache:3: uses 'urll'"), "\(broken)")
        let notAFolder = try await scenario.dppx("css", "src", "--templates", "nope")
        #expect(notAFolder.status == 1)
        #expect(notAFolder.stderr.contains("nope: is not a folder"), "\(notAFolder)")
        let unrelated = try await scenario.dppx("css", "src", "--templates", "src")
        #expect(unrelated.stderr.contains("holds none of the stylesheet templates"), "\(unrelated)")
    }

    @Test("a copy of the binary alone renders CSS and HTML with the built-in templates; DPPX_TEMPLATES replaces them file by file")
    func builtInTemplates() async throws {
        let scenario = try RenderScenario()
        try FileManager.default.createDirectory(atPath: scenario.scratch("bin"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: DPPXBinary.path, toPath: scenario.scratch("bin/dppx"))
        let copied = scenario.scratch("bin/dppx")
        let css = try await ExternalProcess.run(copied, ["css", "src"], in: scenario.root, environment: ["DPPX_TEMPLATES": nil])
        #expect(css.status == 0, "\(css)")
        #expect(css.stdout.contains("@media (-webkit-min-device-pixel-ratio: 1.5)"), "\(css)")
        let html = try await ExternalProcess.run(copied, ["html", "src"], in: scenario.root, environment: ["DPPX_TEMPLATES": nil])
        #expect(html.status == 0, "\(html)")
        #expect(html.stdout.contains("srcset=\"hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x\""), "\(html)")
        let built = try await ExternalProcess.run(copied, ["build", "src", "--out", "public", "--css", "public/site.css", "--quiet"],
                                                  in: scenario.root, environment: ["DPPX_TEMPLATES": nil])
        #expect(built.status == 0, "\(built)")
        #expect(scenario.read("public/site.css")?.contains(".img-hero {") == true)

        try scenario.write("{{%CONTENT_TYPE: TEXT}}\n/* packaged */\n", to: "share/stylesheet.mustache")
        let packaged = try await scenario.dppx(arguments: ["css", "src"], environment: ["DPPX_TEMPLATES": scenario.scratch("share")])
        #expect(packaged.stdout == "/* packaged */\n", "the rule templates it does not hold are the built-in ones: \(packaged)")
        let wrong = try await scenario.dppx(arguments: ["css", "src"], environment: ["DPPX_TEMPLATES": scenario.scratch("missing")])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("DPPX_TEMPLATES"), "\(wrong)")
    }

    @Test("--legacy, --no-box and --prefix reach the output")
    func styleFlags() async throws {
        let scenario = try RenderScenario()
        let result = try await scenario.dppx("css", "src", "--legacy", "--no-box", "--prefix", "img-")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("(min--moz-device-pixel-ratio: 2), (-o-min-device-pixel-ratio: 2/1), (min-resolution: 192dpi)"))
        #expect(!result.stdout.contains("width:"))
        #expect(result.stdout.contains(".img-icons-logo {"))
    }

    @Test("file names with spaces, quotes and parentheses are percent-encoded in url()")
    func escapedNames() async throws {
        let scenario = try RenderScenario(masters: ["my \"best\" (1).jpg": (40, 20), "2019 café.jpg": (40, 20)], svg: false)
        // Bare names, so a leading digit has to be escaped.
        let result = try await scenario.dppx("css", "src", "--prefix", "")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(".my-\\\"best\\\"-\\(1\\) {\n  background-image: url(\"my%20%22best%22%20%281%29.jpg\");"))
        #expect(result.stdout.contains(".\\32 019-café {\n  background-image: url(\"2019%20caf%C3%A9.jpg\");"))
    }
}
