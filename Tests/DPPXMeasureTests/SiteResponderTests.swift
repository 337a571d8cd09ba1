import DPPXCore
import DPPXMeasure
import Foundation
import Testing

/// How the browser's requests are answered from the site's folder: files under the root (and
/// under the site's base URL), manifest images as SVGs of their size, `<img>` tags marked with
/// their source offset, 404 for what the site does not serve, and no answer for other origins.
@Suite("Site responder")
struct SiteResponderTests {
    let root: String
    let responder: SiteResponder

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-responder-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/site/css", withIntermediateDirectories: true)
        try "body{}".write(toFile: root + "/site/css/a.css", atomically: true, encoding: .utf8)
        try "<p><img src=a.jpg><IMG\nsrc=b.jpg><image src=c.jpg>".write(toFile: root + "/site/index.html", atomically: true, encoding: .utf8)
        try "secret".write(toFile: root + "/secret.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: root + "/site/link.txt", withDestinationPath: root + "/secret.txt")
        // Offsets as the HTML parser gives them (the `<image>` too: HTML reads it as <img>).
        responder = SiteResponder(root: root + "/site", imageSizes: ["img/hero.jpg": PixelSize(width: 2400, height: 1200)],
                                  imageTagOffsets: { _ in [3, 18, 33] })
    }

    @Test("a manifest image is an SVG of its pixel size")
    func imageIsSized() throws {
        let answer = try #require(responder.answer(SiteResponder.origin + "/img/hero.jpg?v=2"))
        #expect(answer.status == 200 && answer.contentType == "image/svg+xml" && answer.dependency == "img/hero.jpg")
        #expect(String(decoding: answer.body, as: UTF8.self) == "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2400\" height=\"1200\"/>")
    }

    @Test("the host page holds the page in a frame, its URL escaped, and is no dependency")
    func hostPage() throws {
        let answer = try #require(responder.answer(SiteResponder.hostURL(ofPage: "a & b/\"x\".html", height: 800)))
        #expect(answer.status == 200 && answer.contentType.hasPrefix("text/html") && answer.dependency == nil)
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(page.contains(#"<iframe src="\#(SiteResponder.origin)/a%20&amp;%20b/%22x%22.html"></iframe>"#), "\(page)")
        #expect(page.contains("height: 800px") && page.contains(#"<link rel="icon" href="data:,">"#), "\(page)")
        #expect(try #require(responder.answer(SiteResponder.origin + "/.dppx/measure?height=800")).status == 404, "no page, no host")
    }

    @Test("a page gets each <img> marked with its source offset, by an attribute named anew each run; <image> is left as written")
    func pageIsMarked() throws {
        let answer = try #require(responder.answer(SiteResponder.origin + "/"))
        let mark = SiteResponder.offsetAttribute
        #expect(answer.contentType.hasPrefix("text/html") && answer.dependency == "index.html")
        #expect(String(decoding: answer.body, as: UTF8.self) == "<p><img \(mark)=\"3\" src=a.jpg><IMG \(mark)=\"18\"\nsrc=b.jpg><image src=c.jpg>")
        #expect(mark.hasPrefix("data-dppx-at-") && mark.count > "data-dppx-at-".count + 6, "\(mark)")
    }

    @Test("stylesheets are read from the root; a missing file is a 404 whose folder is the dependency, never the path asked for")
    func filesAndMissing() throws {
        let css = try #require(responder.answer(SiteResponder.origin + "/css/a.css"))
        #expect(css.status == 200 && css.contentType.hasPrefix("text/css") && css.body == Array("body{}".utf8))
        let missing = try #require(responder.answer(SiteResponder.origin + "/css/b.css"))
        #expect(missing.status == 404 && missing.dependency == "css/")
        // A made-up path (a page writing what it read into a URL) is no dependency: only the
        // nearest folder that exists, so nothing a page chose reaches the layout file.
        let made = try #require(responder.answer(SiteResponder.origin + "/TOKEN-ghp_abc123/x.png"))
        #expect(made.status == 404 && made.dependency == "./")
        #expect(responder.isSiteFile("css/a.css") && responder.isSiteFile("img/hero.jpg") && !responder.isSiteFile("css/b.css"))
    }

    @Test("paths out of the root, through .. or a link, answer 400 or 404, as dppx serve answers them; other origins get no answer")
    func containment() throws {
        for (url, status) in [(SiteResponder.origin + "/../secret.txt", 400), (SiteResponder.origin + "/%2e%2e/secret.txt", 400),
                              (SiteResponder.origin + "/link.txt", 404)] {
            let answer = try #require(responder.answer(url))
            #expect(answer.status == status, "\(url)")
            #expect(answer.dependency == nil, "\(url)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("secret"), "\(url)")
        }
        #expect(responder.answer("https://cdn.example.com/x.js") == nil, "fails as with no network, never a 404 a script reads")
        #expect(responder.answer("http://dppx.localhost.example.com/css/a.css") == nil)
    }

    @Test("URLs under the site's base URL are answered from the root, with the same rules; its path alone, or without a scheme, too")
    func baseURL() throws {
        var site = responder
        site.baseURL = "https://Example.com/blog"
        let css = try #require(site.answer("https://example.com/blog/css/a.css?v=1"))
        #expect(css.status == 200 && css.dependency == "css/a.css" && css.body == Array("body{}".utf8))
        #expect(try #require(site.answer("https://example.com/blog/img/hero.jpg")).contentType == "image/svg+xml")
        #expect(try #require(site.answer("https://example.com/blog/../secret.txt")).status == 400)
        #expect(try #require(site.answer("https://example.com/blog/link.txt")).status == 404)
        #expect(site.answer("https://example.com/css/a.css") == nil, "outside the base URL's path: another site")
        #expect(site.answer("http://example.com/blog/css/a.css") == nil, "another scheme is another origin")
        #expect(try #require(site.answer(SiteResponder.origin + "/css/a.css")).status == 200, "the measuring origin still is the root")
        #expect(site.rootPath(of: "https://example.com/blog/a%20b/") == "a b/index.html")
        #expect(site.bodySize(of: "https://example.com/blog/css/a.css") == 6)

        site.baseURL = "/blog/"
        #expect(try #require(site.answer(SiteResponder.origin + "/blog/css/a.css")).dependency == "css/a.css")
        site.baseURL = "//cdn.example.com/"
        #expect(try #require(site.answer("http://cdn.example.com/css/a.css")).status == 200)
        #expect(try #require(site.answer("https://cdn.example.com/css/a.css")).status == 200)
        site.baseURL = nil
        #expect(site.answer("https://cdn.example.com/css/a.css") == nil)
    }

    @Test("private files answer 404 as in dppx serve (PrivateFiles): hidden files, dppx.toml, partial manifests, the masters, links to them")
    func privateFiles() throws {
        let site = root + "/site"
        try FileManager.default.createDirectory(atPath: site + "/.git", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site + "/masters", withIntermediateDirectories: true)
        for file in [".env", ".git/config", "dppx.toml", "dppx-manifest.shard-1-of-2.json", "masters/photo.jpg"] {
            try "secret".write(toFile: site + "/" + file, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: site + "/env.txt", withDestinationPath: site + "/.env")
        try FileManager.default.createSymbolicLink(atPath: site + "/toml.txt", withDestinationPath: "dppx.toml")
        let guarded = SiteResponder(root: site, imageSizes: [:], privateFolders: [site + "/masters"], imageTagOffsets: { _ in [] })
        for path in ["/.env", "/%2eenv", "/.git/config", "/dppx.toml", "/DPPX.TOML", "/dppx-manifest.shard-1-of-2.json",
                     "/masters/photo.jpg", "/env.txt", "/toml.txt"] {
            let answer = try #require(guarded.answer(SiteResponder.origin + path))
            #expect(answer.status == 404, "\(path)")
            #expect(answer.dependency == nil, "\(path)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("secret"), "\(path)")
            #expect(guarded.read(String(path.dropFirst())) == nil, "\(path)")
        }
        #expect(try #require(guarded.answer(SiteResponder.origin + "/css/a.css")).status == 200, "the rest is answered")
    }

    @Test("a file larger than the cap answers 404 without being read, and its hash costs no read")
    func largeFile() throws {
        let path = root + "/site/huge.bin"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 256 << 20)  // sparse: 256 MB on no disk
        try handle.close()
        let url = SiteResponder.origin + "/huge.bin"
        let answer = try #require(responder.answer(url))
        #expect(answer.status == 404 && answer.body.count < 100 && answer.dependency == "huge.bin")
        #expect(responder.bodySize(of: url) == 0 && responder.read("huge.bin") == nil)
        let started = ContinuousClock.now
        let hash = DependencyHash.of(["huge.bin"], responder: responder, ladder: ViewportLadder())
        #expect(ContinuousClock.now - started < .seconds(1), "not read to be hashed")
        #expect(hash != DependencyHash.of(["css/a.css"], responder: responder, ladder: ViewportLadder()))
        #expect(responder.bodySize(of: SiteResponder.origin + "/css/a.css") == 6)
    }
}
