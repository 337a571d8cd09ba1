import DPPXCore
import Foundation
import Testing

@Suite("dppx html (end to end)", .serialized)
struct HTMLCommandTests {
    @Test("prints an <img srcset> per image, with the CSS size, empty alt, lazy loading and async decoding")
    func images() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let result = try await scenario.dppx("html", "public")
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
        <img src="hero.jpg" srcset="hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x" width="400" height="250" alt="" loading="lazy" decoding="async">
        <img src="icons/logo.png" srcset="icons/logo.png 1x, icons/logo@1.5x.png 1.5x, icons/logo@2x.png 2x" width="32" height="32" alt="" loading="lazy" decoding="async">
        <img src="vector.svg" width="24" height="24" alt="" loading="lazy" decoding="async">

        """)
    }

    @Test("--no-dimensions (or [html] dimensions = false) leaves width and height out; --dimensions puts them back")
    func noDimensions() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let flag = try await scenario.dppx("html", "public", "hero.jpg", "--no-dimensions")
        #expect(flag.status == 0, "\(flag)")
        #expect(flag.stdout == "<img src=\"hero.jpg\" srcset=\"hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x\" alt=\"\" loading=\"lazy\" decoding=\"async\">\n")
        try scenario.write("[html]\ndimensions = false\n", to: "dppx.toml")
        let file = try await scenario.dppx("html", "public", "hero.jpg")
        #expect(file.stdout == flag.stdout, "\(file)")
        let back = try await scenario.dppx("html", "public", "hero.jpg", "--dimensions")
        #expect(back.stdout.contains("width=\"400\" height=\"250\""), "\(back)")
        let json = try await scenario.dppx("html", "public", "hero.jpg", "--json")
        #expect(json.stdout.contains("\"width\" : 400") && !json.stdout.contains("width=\\\"400"), "the data keeps the size: \(json)")
    }

    @Test("on a terminal, markup with width and height comes with the CSS that keeps them from stretching images")
    func dimensionsHint() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        // `script` gives dppx a terminal, as a user's shell does.
        let command = "'\(DPPXBinary.path)' html public hero.jpg -o hero.html"
        let terminal = try await ExternalProcess.run("/usr/bin/script", ["-qec", command, "/dev/null"], in: scenario.root)
        #expect(terminal.status == 0, "\(terminal)")
        #expect(terminal.stdout.contains("dppx: note: ") && terminal.stdout.contains("img { height: auto; }")
                && terminal.stdout.contains("--no-dimensions"), "\(terminal)")
        let quiet = try await ExternalProcess.run("/usr/bin/script", ["-qec", command + " --no-dimensions", "/dev/null"], in: scenario.root)
        #expect(!quiet.stdout.contains("height: auto"), "no hint without the attributes: \(quiet)")
        let piped = try await scenario.dppx("html", "public", "hero.jpg")
        #expect(piped.stderr.isEmpty, "not on a terminal: nothing said (Makefiles, CI): \(piped)")
    }

    @Test("with extra formats, a <picture> lists AVIF then WebP before the <img>")
    func picture() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(["--formats", "webp,avif"])
        let result = try await scenario.dppx("html", "public", "hero.jpg")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == """
        <picture>
          <source type="image/avif" srcset="hero.avif 1x, hero@1.5x.avif 1.5x, hero@2x.avif 2x">
          <source type="image/webp" srcset="hero.webp 1x, hero@1.5x.webp 1.5x, hero@2x.webp 2x">
          <img src="hero.jpg" srcset="hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x" width="400" height="250" alt="" loading="lazy" decoding="async">
        </picture>

        """)
    }

    @Test("PATHS pick images in the order given, by master or variant path, with or without DIR in front")
    func paths() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let result = try await scenario.dppx("html", "public", "vector.svg", "public/icons/logo@1.5x.png", "./hero.jpg")
        #expect(result.status == 0, "\(result)")
        let sources = result.stdout.split(separator: "\n").map { $0.split(separator: "\"")[1] }
        #expect(sources == ["vector.svg", "icons/logo.png", "hero.jpg"])
    }

    @Test("an unknown PATH is named, the rest printed, exit 1")
    func unknownPath() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        let result = try await scenario.dppx("html", "public", "nope.jpg", "hero.jpg")
        #expect(result.status == 1)
        #expect(result.stderr.contains("nope.jpg: no such image in public"), "\(result)")
        #expect(result.stdout.hasPrefix("<img src=\"hero.jpg\""))
    }

    @Test("--json prints the same data for other tools")
    func json() async throws {
        let scenario = try RenderScenario()
        try await scenario.build(["--formats", "webp"])
        let result = try await scenario.dppx("html", "public", "--json")
        #expect(result.status == 0, "\(result)")
        let document = try JSONDecoder().decode(MarkupDocument.self, from: Data(result.stdout.utf8))
        #expect(document.images.map(\.source) == ["hero@2x.jpg", "icons/logo@3x.png", "vector.svg"])
        #expect(document.images[0].srcset == "hero.jpg 1x, hero@1.5x.jpg 1.5x, hero@2x.jpg 2x")
        #expect(document.images[0].sources == [MarkupImage.Source(type: "image/webp", srcset: "hero.webp 1x, hero@1.5x.webp 1.5x, hero@2x.webp 2x")])
        #expect(document.images[0].html.hasPrefix("<picture>\n  <source type=\"image/webp\""))
        #expect(document.images[1].width == 32 && document.images[1].height == 32)
    }

    @Test("-o writes relative to its folder, only when changed; a masters folder gives the same markup")
    func output() async throws {
        let scenario = try RenderScenario()
        try await scenario.build()
        #expect(try await scenario.dppx("html", "public", "-o", "snippets/images.html").status == 0)
        #expect(scenario.read("snippets/images.html")?.hasPrefix("<img src=\"../public/hero.jpg\"") == true)
        try scenario.age("snippets/images.html")
        let before = scenario.modificationDate("snippets/images.html")
        #expect(try await scenario.dppx("html", "src", "--image-dir", "public", "-o", "snippets/images.html").status == 0)
        #expect(scenario.modificationDate("snippets/images.html") == before)
        let check = try await scenario.dppx("html", "public", "-o", "snippets/images.html", "--base-url", "/img/", "--check")
        #expect(check.status == 1)
        #expect(check.stderr.contains("snippets/images.html is stale"), "\(check)")
    }
}
