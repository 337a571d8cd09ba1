import DPPXServer
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@Suite("dppx serve's pages and headers")
struct ServePagesTests {
    @Test("HTML responses ask for the DPR hints; images and CSS do not")
    func acceptCH() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { (client) async throws in
            #expect(try await client.get("/").headers[.acceptCH] == "Sec-CH-DPR, DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
            #expect(try await client.get("/docs/").headers[.acceptCH] == "Sec-CH-DPR, DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
            #expect(try await client.get("/index.html", method: .head).headers[.acceptCH] == "Sec-CH-DPR, DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
            #expect(try await client.get("/style.css").headers[.acceptCH] == nil)
            #expect(try await client.get("/images/hero.jpg").headers[.acceptCH] == nil)
        }
    }

    @Test("/_dppx/dpr.js sets the dpr cookie from window.devicePixelRatio and the vw cookie from the viewport width")
    func dprScript() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            let response = try await client.get("/_dppx/dpr.js")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(response.text.contains("window.devicePixelRatio"))
            #expect(response.text.contains("remember(\"dpr\", dpr)"))
            #expect(response.text.contains("document.documentElement.clientWidth"))
            #expect(response.text.contains("remember(\"vw\", width)"))
            #expect(response.text.contains("document.cookie = name + \"=\" + value"))
            #expect(response.text.contains("Path=/"))
            let head = try await client.get("/_dppx/dpr.js", method: .head)
            #expect(head.status == .ok)
            #expect(head.body.readableBytes == 0)
        }
    }

    @Test("404: a readable HTML page naming the path, for GET; no body for HEAD")
    func notFound() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        defer { Task { try? await running.shutdown() } }
        // Raw bytes: no client library would send `<` in a target.
        let response = try await RawHTTPConnection(port: running.port).request("/nope/<b>missing</b>.jpg")
        #expect(response.status == 404)
        #expect(response.header("Content-Type") == "text/html; charset=utf-8")
        #expect(response.text.contains("404 Not Found"))
        #expect(response.text.contains("&lt;b&gt;missing&lt;/b&gt;"))
        #expect(!response.text.contains("<b>missing</b>"))
        let head = try await RawHTTPConnection(port: running.port).request("/nope.jpg", method: "HEAD")
        #expect(head.status == 404)
        #expect(head.body.isEmpty)
        let post = try await RawHTTPConnection(port: running.port).request("/digits.txt", method: "POST")
        #expect(post.status == 405)
        #expect(post.header("Allow") == "GET, HEAD")
        // The server's own paths too: a mistyped /_dppx/ page is named, not an empty 404.
        let own = try await RawHTTPConnection(port: running.port).request("/_dppx/inspektor")
        #expect(own.status == 404)
        #expect(own.header("Content-Type") == "text/html; charset=utf-8")
        #expect(own.text.contains("404 Not Found") && own.text.contains("/_dppx/inspektor"))
        #expect(try await RawHTTPConnection(port: running.port).request("/_dppx/dpr.js").status == 200)
        #expect(try await RawHTTPConnection(port: running.port).request("/_dppx/").status == 200)
    }

    @Test("the inspector lists every image, its variants, and the one this browser gets")
    func inspector() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp])
        try await fixture.server().test { client in
            let page = try await client.get("/_dppx/", [(.secCHDPR, "2"), (.accept, "image/webp,*/*")])
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.acceptCH] == "Sec-CH-DPR, DPR, Sec-CH-Width, Sec-CH-Viewport-Width")
            let html = page.text
            #expect(html.contains("device pixel ratio <strong>2</strong> (from Sec-CH-DPR)"))
            #expect(html.contains("images/hero@1.5x.webp"))
            #expect(html.contains("<tr class=\"chosen\"><td><a href=\"/images/hero@2x.webp\">"))
            #expect(html.contains("this browser gets <strong><code>images/hero@2x.webp</code></strong> with Content-DPR: 2"))
            #expect(html.contains("icons/arrow.svg"))
            #expect(html.contains("vector: one file"))

            let simulated = try await client.get("/_dppx/?dpr=1.5")
            #expect(simulated.text.contains("this browser gets <strong><code>images/hero@1.5x.jpg</code></strong> with EXIF density (600x375 px laid out at 400x250)"))
        }
    }

    @Test("the inspector says when there is no manifest")
    func inspectorWithoutManifest() async throws {
        let fixture = try ServerFixture(writeManifest: false)
        try await fixture.server().test { client in
            let html = try await client.get("/_dppx/").text
            #expect(html.contains("dppx-manifest.json not found: serving static files only"))
        }
    }
}
