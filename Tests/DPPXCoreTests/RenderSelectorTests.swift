import DPPXCore
import Testing

@Suite("Render: selectors")
struct RenderSelectorTests {
    let namer = SelectorNamer()

    @Test("class names come from the path without extension or @Nx, folders joined with -",
          arguments: [
              ("hero.jpg", "hero"), ("icons/logo@3x.png", "icons-logo"), ("a/b/c.webp", "a-b-c"),
              ("Hero.JPG", "Hero"), ("logo@1.5x.png", "logo"), ("my photo.jpg", "my-photo"),
          ])
    func names(path: String, name: String) {
        #expect(namer.className(forSource: path) == name)
    }

    @Test("characters a CSS identifier cannot hold are escaped",
          arguments: [
              ("2019.jpg", ".\\32 019"), ("-1.png", ".-\\31 "), ("-.png", ".\\-"), ("a.b.jpg", ".a\\.b"),
              ("photo (1).jpg", ".photo-\\(1\\)"), ("café.jpg", ".café"), ("x+y!.png", ".x\\+y\\!"),
              ("_a.png", "._a"), ("--x.png", ".--x"), ("a:b.png", ".a\\:b"),
          ])
    func escaping(path: String, selector: String) {
        #expect(namer.selector(forSource: path) == selector)
    }

    @Test("CSSOM serialisation: control characters as hex, NUL as U+FFFD")
    func controlCharacters() {
        #expect(CSSIdentifier.escape("a\u{1}b") == "a\\1 b")
        #expect(CSSIdentifier.escape("a\u{7F}") == "a\\7f ")
        #expect(CSSIdentifier.escape("\u{0}") == "\u{FFFD}")
        #expect(CSSIdentifier.escape("-") == "\\-")
        #expect(CSSIdentifier.escape("9") == "\\39 ")
    }

    @Test("the prefix is part of the escaped identifier")
    func prefix() {
        #expect(SelectorNamer(prefix: "img-").selector(forSource: "hero.jpg") == ".img-hero")
        #expect(SelectorNamer(prefix: "1-").selector(forSource: "hero.jpg") == ".\\31 -hero")
        #expect(SelectorNamer(prefix: "x").selector(forSource: "2019.jpg") == ".x2019")
    }

    @Test("images that map to one selector are an error naming both",
          arguments: [("hero.jpg", "hero.png"), ("a-b.png", "a/b.png"), ("my photo.jpg", "my-photo.jpg")])
    func collisions(first: String, second: String) {
        let images = [RenderFixtures.image(first, 40, 40), RenderFixtures.image(second, 40, 40)]
        let sorted = Manifest(images: images).images
        #expect(throws: RenderError.self) { try namer.selectors(for: sorted) }
        do {
            _ = try namer.selectors(for: sorted)
        } catch {
            #expect(error.description.contains(first))
            #expect(error.description.contains(second))
        }
    }

    @Test("distinct images keep distinct selectors, case included")
    func distinct() throws {
        let images = Manifest(images: [RenderFixtures.image("Hero.jpg", 40, 40), RenderFixtures.image("hero.jpg", 40, 40)]).images
        let selectors = try namer.selectors(for: images)
        #expect(selectors == ["Hero.jpg": ".Hero", "hero.jpg": ".hero"])
    }
}
