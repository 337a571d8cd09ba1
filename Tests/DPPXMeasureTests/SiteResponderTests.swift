import DPPXCore
import DPPXMeasure
import Foundation
import Testing

/// How the browser's requests are answered from the site's folder: files under the root,
/// manifest images as SVGs of their size, `<img>` tags marked with their source offset, and
/// 404 for everything else.
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
    func imageIsSized() {
        let answer = responder.answer(SiteResponder.origin + "/img/hero.jpg?v=2")
        #expect(answer.status == 200 && answer.contentType == "image/svg+xml" && answer.dependency == "img/hero.jpg")
        #expect(String(decoding: answer.body, as: UTF8.self) == "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"2400\" height=\"1200\"/>")
    }

    @Test("the host page holds the page in a frame, its URL escaped, and is no dependency")
    func hostPage() {
        let answer = responder.answer(SiteResponder.hostURL(ofPage: "a & b/\"x\".html", height: 800))
        #expect(answer.status == 200 && answer.contentType.hasPrefix("text/html") && answer.dependency == nil)
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(page.contains(#"<iframe src="\#(SiteResponder.origin)/a%20&amp;%20b/%22x%22.html"></iframe>"#), "\(page)")
        #expect(page.contains("height: 800px") && page.contains(#"<link rel="icon" href="data:,">"#), "\(page)")
        #expect(responder.answer(SiteResponder.origin + "/.dppx/measure?height=800").status == 404, "no page, no host")
    }

    @Test("a page gets each <img> marked with its source offset, by an attribute named anew each run; <image> is left as written")
    func pageIsMarked() {
        let answer = responder.answer(SiteResponder.origin + "/")
        let mark = SiteResponder.offsetAttribute
        #expect(answer.contentType.hasPrefix("text/html") && answer.dependency == "index.html")
        #expect(String(decoding: answer.body, as: UTF8.self) == "<p><img \(mark)=\"3\" src=a.jpg><IMG \(mark)=\"18\"\nsrc=b.jpg><image src=c.jpg>")
        #expect(mark.hasPrefix("data-dppx-at-") && mark.count > "data-dppx-at-".count + 6, "\(mark)")
    }

    @Test("stylesheets are read from the root; a missing file is a 404 and still a dependency")
    func filesAndMissing() {
        let css = responder.answer(SiteResponder.origin + "/css/a.css")
        #expect(css.status == 200 && css.contentType.hasPrefix("text/css") && css.body == Array("body{}".utf8))
        let missing = responder.answer(SiteResponder.origin + "/css/b.css")
        #expect(missing.status == 404 && missing.dependency == "css/b.css")
    }

    @Test("paths out of the root, through .. or a link, and other origins answer 404")
    func containment() {
        for url in [SiteResponder.origin + "/../secret.txt", SiteResponder.origin + "/%2e%2e/secret.txt",
                    SiteResponder.origin + "/link.txt", "https://cdn.example.com/x.js"] {
            let answer = responder.answer(url)
            #expect(answer.status == 404, "\(url)")
            #expect(!String(decoding: answer.body, as: UTF8.self).contains("secret"), "\(url)")
        }
    }
}
