import DPPXRewrite
import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// With `[rewrite]` configured, `dppx serve` answers pages and stylesheets as `dppx rewrite`
/// writes them, so a developer sees locally what the rewritten site will be.
@Suite("dppx serve rewrites pages with [rewrite]")
struct ServeRewriteTests {
    static let page = #"<!doctype html><html><body><IMG src="images/hero.jpg" alt=x><img src="/images/none.jpg"></body></html>"#
    static let rewritten = #"<!doctype html><html><body><IMG src="images/hero.jpg" alt=x srcset="images/hero.jpg 1x, images/hero@1.5x.jpg 1.5x, images/hero@2x.jpg 2x"><img src="/images/none.jpg"></body></html>"#

    @Test("HTML pages get srcset and stylesheets image-set(), sent whole and not stored; other files are untouched")
    func rewritesPages() async throws {
        let fixture = try ServerFixture()
        try fixture.write("index.html", Self.page)
        try fixture.write("style.css", ".hero { background: url(images/hero.jpg) }\n")
        try await fixture.server(rewrite: RewriteOptions()).makeApplication().test(.live) { client in
            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.text == Self.rewritten)
            #expect(page.headers[.contentLength] == String(Self.rewritten.utf8.count))
            #expect(page.headers[.cacheControl] == "no-store" && page.headers[.eTag] == nil)
            let head = try await client.get("/index.html", method: .head)
            #expect(head.headers[.contentLength] == String(Self.rewritten.utf8.count))
            let css = try await client.get("/style.css")
            #expect(css.text == #".hero { background: url(images/hero.jpg); background-image: image-set(url("images/hero.jpg") 1x, url("images/hero@1.5x.jpg") 1.5x, url("images/hero@2x.jpg") 2x) }"# + "\n")
            #expect(try await client.get("/app.js").text == "console.log('hi');\n")
        }
    }

    @Test("without [rewrite] pages are served byte for byte")
    func leavesPagesAlone() async throws {
        let fixture = try ServerFixture()
        try fixture.write("index.html", Self.page)
        try await fixture.server().makeApplication().test(.live) { client in
            let page = try await client.get("/")
            #expect(page.text == Self.page)
            #expect(page.headers[.eTag] != nil)
        }
    }
}
