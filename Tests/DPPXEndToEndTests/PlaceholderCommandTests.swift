import DPPXCore
import Foundation
import Testing

@Suite("dppx html and css --placeholder, html --preload (end to end)", .serialized)
struct PlaceholderCommandTests {
    /// The built manifest's entry of `source`.
    func placeholder(_ scenario: RenderScenario, _ source: String) throws -> ImagePlaceholder {
        let manifest = try Manifest.decode(Array(try #require(scenario.read("public/dppx-manifest.json")).utf8))
        return try #require(manifest.images.first { $0.source == source }?.placeholder)
    }

    @Test("html --placeholder color and blur put the build's colour and preview on each <img>; the SVG gets none")
    func html() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let hero = try placeholder(scenario, "hero@2x.jpg")
        let color = try #require(hero.color)
        let preview = try #require(hero.preview)
        let colored = try await scenario.dppx("html", "public", "--placeholder", "color")
        #expect(colored.status == 0, "\(colored)")
        let lines = colored.stdout.split(separator: "\n")
        #expect(lines[0].contains(#"alt="" style="background-color: \#(color)" loading="lazy""#), "\(lines[0])")
        #expect(!lines[2].contains("style="), "the SVG has no placeholder: \(lines[2])")
        let blurred = try await scenario.dppx("html", "public", "hero.jpg", "--placeholder", "blur")
        #expect(blurred.stdout.contains(#"style="background: url(\#(preview)) \#(color) 50% 50% / cover no-repeat""#), "\(blurred.stdout)")
    }

    @Test("css --placeholder puts the colour, and for blur the preview, beneath the class's backgrounds")
    func css() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(["--formats", "webp"])
        let hero = try placeholder(scenario, "hero@2x.jpg")
        let result = try await scenario.dppx("css", "public", "--placeholder", "blur", "-o", "public/images.css")
        #expect(result.status == 0, "\(result)")
        let css = try #require(scenario.read("public/images.css"))
        #expect(css.contains("background-color: \(try #require(hero.color));"))
        let layer = "url(\(try #require(hero.preview)))"
        #expect(css.contains(#"background-image: url("hero.jpg"), \#(layer);"#))
        #expect(css.contains(#".img-hero { background-image: url("hero@2x.jpg"), \#(layer); }"#))
        #expect(css.contains("background-size: 400px 250px, cover;"))
    }

    @Test("--placeholder of a folder of masters is a usage error that says to build first")
    func mastersHaveNone() async throws {
        let scenario = try RenderScenario()
        for command in ["css", "html"] {
            let result = try await scenario.dppx(command, "src", "--placeholder", "color")
            #expect(result.status == 2, "\(result)")
            #expect(result.stderr.contains("--placeholder reads the placeholders 'dppx build' records"))
            #expect(result.stderr.contains("dppx build src -o OUT"))
            #expect(result.stdout.isEmpty)
        }
        let wrong = try await scenario.dppx("html", "src", "--placeholder", "thumbhash")
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("color") && wrong.stderr.contains("blur"), "\(wrong.stderr)")
    }

    @Test("[css] placeholder and [html] placeholder in dppx.toml do what --placeholder does; the flag overrides the file")
    func projectFile() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let hero = try placeholder(scenario, "hero@2x.jpg")
        let color = try #require(hero.color)
        try scenario.write("[css]\nplaceholder = \"color\"\n[html]\nplaceholder = \"blur\"\n", to: "dppx.toml")
        let css = try await scenario.dppx("css", "public")
        let flagged = try await scenario.dppx("css", "public", "--placeholder", "color")
        #expect(css.status == 0 && css.stdout.contains("background-color: \(color);"), "\(css)")
        #expect(css.stdout == flagged.stdout, "the file's key writes what the flag writes")
        let html = try await scenario.dppx("html", "public", "hero.jpg")
        #expect(html.stdout.contains(#"style="background: url(\#(try #require(hero.preview))) \#(color) 50% 50% / cover no-repeat""#), "\(html.stdout)")
        let overridden = try await scenario.dppx("html", "public", "hero.jpg", "--placeholder", "color")
        #expect(overridden.stdout.contains(#"style="background-color: \#(color)""#), "\(overridden.stdout)")
        // Of a folder of masters, the file's key is named as the asker.
        let masters = try await scenario.dppx("html", "src")
        #expect(masters.status == 2, "\(masters)")
        #expect(masters.stderr.contains("html.placeholder in the project file reads the placeholders"), "\(masters.stderr)")
    }

    @Test("html --preload prints the preload link first, matching its <img>, which loads at once")
    func preload() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(["--formats", "webp"])
        let result = try await scenario.dppx("html", "public", "icons/logo@3x.png", "--preload", "hero.jpg")
        #expect(result.status == 0, "\(result)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines[0] == #"<link rel="preload" as="image" imagesrcset="hero.webp 1x, hero@1.5x.webp 1.5x, hero@2x.webp 2x" type="image/webp" fetchpriority="high">"#)
        #expect(lines[1] == "<picture>", "the preloaded image is printed too, whatever PATHS say")
        let heroImage = try #require(lines.first { $0.contains(#"<img src="hero.jpg""#) })
        #expect(heroImage.contains(#"fetchpriority="high""#) && !heroImage.contains("lazy"))
        let logo = try #require(lines.first { $0.contains("icons/logo.png") })
        #expect(logo.contains(#"loading="lazy""#))

        let missing = try await scenario.dppx("html", "public", "--preload", "nothere.jpg")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothere.jpg: no such image in public"))
    }
}
