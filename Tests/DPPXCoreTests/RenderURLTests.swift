import DPPXCore
import Testing

@Suite("Render: URLs")
struct RenderURLTests {
    @Test("path segments are percent-encoded except letters, digits, -._~ and @",
          arguments: [
              ("hero@2x.jpg", "hero@2x.jpg"), ("my photo.jpg", "my%20photo.jpg"), ("a\"b'c.png", "a%22b%27c.png"),
              ("(1).png", "%281%29.png"), ("a,b.png", "a%2Cb.png"), ("a&b.png", "a%26b.png"),
              ("café.jpg", "caf%C3%A9.jpg"), ("a%20.png", "a%2520.png"), ("a#b?.png", "a%23b%3F.png"),
              ("icons/my logo.png", "icons/my%20logo.png"),
          ])
    func encoding(path: String, url: String) {
        #expect(URLEncoding.encodePath(path) == url)
    }

    @Test("relative bases join with /; . and .. stay")
    func relative() {
        #expect(URLBase.relative("").url(for: "hero.jpg") == "hero.jpg")
        #expect(URLBase.relative(".").url(for: "hero.jpg") == "hero.jpg")
        #expect(URLBase.relative("..").url(for: "a b/hero.jpg") == "../a%20b/hero.jpg")
        #expect(URLBase.relative("../my img/").url(for: "hero.jpg") == "../my%20img/hero.jpg")
    }

    @Test("a base URL keeps its meaning: query strings and escapes survive, unsafe characters are encoded")
    func absolute() {
        #expect(URLBase.absolute("https://cdn.example.com/img/").url(for: "hero.jpg") == "https://cdn.example.com/img/hero.jpg")
        #expect(URLBase.absolute("/static").url(for: "a/hero.jpg") == "/static/a/hero.jpg")
        #expect(URLEncoding.sanitizeBaseURL("https://x.test/a%20b/?v=1&w=2") == "https://x.test/a%20b/?v=1&w=2")
        #expect(URLEncoding.sanitizeBaseURL("/a b/\"q\"(x)<y>") == "/a%20b/%22q%22%28x%29%3Cy%3E")
    }

    @Test("CSS strings escape quotes, backslashes and line breaks")
    func cssString() {
        #expect(URLEncoding.cssString("a\"b\\c\nd") == "\"a\\\"b\\\\c\\a d\"")
        #expect(URLEncoding.cssURL("x.png") == "url(\"x.png\")")
    }

    @Test("relative paths between folders", arguments: [
        ("/site/css", "/site/img", "../img"), ("/site", "/site", ""), ("/a", "/a/b/c", "b/c"),
        ("/a/b/c", "/a", "../.."), ("/x/./y/../z", "/x/z/w", "w"), ("/", "/p", "p"),
    ])
    func relativePaths(from: String, to: String, expected: String) {
        #expect(RelativePath.from(from, to: to) == expected)
    }

    @Test("srcset lists put each density after its URL, commas and spaces inside names encoded")
    func srcset() {
        let image = RenderFixtures.image("a, b.jpg", 100, 100)
        let candidates = ImageCandidates(image: image, urls: .relative(""))
        #expect(ImageCandidates.srcset(candidates.primary) == "a%2C%20b.jpg 1x, a%2C%20b@1.5x.jpg 1.5x, a%2C%20b@2x.jpg 2x")
    }
}
