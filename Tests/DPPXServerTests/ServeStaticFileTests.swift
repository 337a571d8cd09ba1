import DPPXCore
@testable import DPPXServer
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@Suite("dppx serve as a static file server")
struct ServeStaticFileTests {
    @Test("a folder serves its index.html; a folder without its slash is redirected")
    func indexFiles() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let home = try await responder.answer("/")
        #expect(home.status == .ok)
        #expect(home.text.contains("<h1>home</h1>"))
        #expect(home.headers[.contentType]?.hasPrefix("text/html") == true)
        let docs = try await responder.answer("/docs/")
        #expect(docs.text.contains("docs"))
        let redirect = try await responder.answer("/docs")
        #expect(redirect.status == .movedPermanently)
        #expect(redirect.headers[.location] == "/docs/")
        #expect(try await responder.answer("/docs?lang=fr").headers[.location] == "/docs/?lang=fr")
    }

    @Test("GET //icons redirects to /icons/, never to //icons/ (another host to a browser)")
    func doubleSlashRedirect() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        let connection = try RawHTTPConnection(port: running.port)
        for (path, location) in [("//icons", "/icons/"), ("///icons?a=1", "/icons/?a=1"), ("//docs", "/docs/"), ("/icons", "/icons/")] {
            let answer = try await connection.request(path)
            #expect(answer.status == 301 && answer.header("Location") == location, "\(path): \(answer.header("Location") ?? "none")")
        }
        #expect(Responder.folderLocation("/\\evil.com") == "/%5Cevil.com/")
        try await running.shutdown()
    }

    @Test("Content-Type follows the extension", arguments: [
        ("/style.css", "text/css"), ("/app.js", "text/javascript"), ("/icons/arrow.svg", "image/svg+xml"),
        ("/images/hero@2x.jpg", "image/jpeg"), ("/digits.txt", "text/plain"),
    ])
    func contentTypes(path: String, type: String) async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer(path)
        #expect(response.headers[.contentType]?.hasPrefix(type) == true, "\(path): \(response.headers[.contentType] ?? "none")")
    }

    @Test("ETag and Last-Modified, and 304 for If-None-Match and If-Modified-Since")
    func conditionals() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let first = try await responder.answer("/style.css")
        let tag = try #require(first.headers[.eTag])
        let modified = try #require(first.headers[.lastModified])
        #expect(try await responder.answer("/style.css", [(.ifNoneMatch, tag)]).status == .notModified)
        #expect(try await responder.answer("/style.css", [(.ifModifiedSince, modified)]).status == .notModified)
        #expect(try await responder.answer("/style.css", [(.ifNoneMatch, "\"other\"")]).status == .ok)
    }

    @Test("HEAD: the headers of GET, no body")
    func head() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            let response = try await client.get("/digits.txt", method: .head)
            #expect(response.status == .ok)
            #expect(response.headers[.contentLength] == "10")
            #expect(response.body.readableBytes == 0)
        }
    }

    @Test("single byte ranges: 206 with Content-Range, suffix ranges, 416 past the end", arguments: [
        ("bytes=0-3", 206, "0123", "bytes 0-3/10"),
        ("bytes=7-", 206, "789", "bytes 7-9/10"),
        ("bytes=-3", 206, "789", "bytes 7-9/10"),
        ("bytes=-30", 206, "0123456789", "bytes 0-9/10"),
        ("bytes=8-100", 206, "89", "bytes 8-9/10"),
        ("bytes=10-", 416, "", "bytes */10"),
        ("bytes=50-60", 416, "", "bytes */10"),
        ("bytes=-0", 416, "", "bytes */10"),
        ("bytes=0-1,4-5", 200, "0123456789", nil),
        ("bytes=5-2", 200, "0123456789", nil),
        ("lines=1-2", 200, "0123456789", nil),
        ("bytes=abc", 200, "0123456789", nil),
    ] as [(String, Int, String, String?)])
    func ranges(range: String, status: Int, body: String, contentRange: String?) async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/digits.txt", [(.range, range)])
        #expect(response.status.code == status)
        if status != 416 { #expect(response.text == body) }
        #expect(response.headers[.contentRange] == contentRange)
    }

    @Test("a range with a stale If-Range gets the whole file; a weak tag never matches (RFC 9110 13.1.5), the date and a variant's strong tag do")
    func ifRange() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let first = try await responder.answer("/digits.txt")
        let tag = try #require(first.headers[.eTag])
        #expect(tag.hasPrefix("W/"))
        let weak = try await responder.answer("/digits.txt", [(.range, "bytes=0-1"), (.ifRange, tag)])
        #expect(weak.status == .ok && weak.text == "0123456789", "a weak tag in If-Range: the whole file")
        let dated = try await responder.answer("/digits.txt", [(.range, "bytes=0-1"), (.ifRange, try #require(first.headers[.lastModified]))])
        #expect(dated.status == .partialContent && dated.text == "01")
        let strong = ServerFixture.heroETag(Density(2), .jpeg)
        let variant = try await responder.answer("/images/hero.jpg", [(.range, "bytes=0-1"), (.ifRange, strong), (.init("Sec-CH-DPR")!, "2")])
        #expect(variant.status == .partialContent && variant.headers[.eTag] == strong)
        let stale = try await responder.answer("/digits.txt", [(.range, "bytes=0-1"), (.ifRange, "\"old\"")])
        #expect(stale.status == .ok)
        #expect(stale.text == "0123456789")
    }

    @Test("Cache-Control is configurable and set on every file")
    func cacheControl() async throws {
        let fixture = try ServerFixture()
        let policy = try CachePolicy(parsing: "public,max-age=3600")
        let responder = fixture.responder(cachePolicy: policy)
        for path in ["/", "/style.css", "/images/hero@2x.jpg", "/digits.txt"] {
            #expect(try await responder.answer(path).headers[.cacheControl] == "public, max-age=3600", "\(path)")
        }
    }

    @Test("a large file arrives whole and streamed in chunks")
    func largeFile() async throws {
        let fixture = try ServerFixture()
        let bytes = (0..<(3 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try fixture.writeBytes("big.bin", bytes)
        try await fixture.server().test { client in
            let response = try await client.get("/big.bin")
            #expect(response.status == .ok)
            #expect(response.body.readableBytes == bytes.count)
            #expect(Array(response.body.readableBytesView) == bytes)
        }
    }
}
