import DPPXCore
@testable import DPPXServer
import Foundation
import HTTPTypes
import Testing

/// `ResponderHarness` answers as the server does, less the wire: the socket tests it replaced
/// rely on that.
@Suite("the responder harness answers as the server does")
struct ResponderHarnessTests {
    @Test("the same answers as over a socket: status, every header but the writer's own (Date, Connection, nosniff), body", arguments: [
        ("/images/hero.jpg", [(HTTPField.Name.secCHDPR, "2")]),
        ("/images/hero.jpg", [(.cookie, "dpr=1.5"), (.accept, "image/webp,*/*")]),
        ("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=2-5")]),
        ("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, ServerFixture.heroETag(Density(2), .jpeg))]),
        ("/digits.txt", [(.range, "bytes=50-")]),
        ("/docs", []), ("/", []), ("/missing", []), ("/.hidden", []), ("/a%2Fb", []),
    ] as [(String, [(HTTPField.Name, String)])])
    func agreesWithTheSocket(path: String, headers: [(HTTPField.Name, String)]) async throws {
        let fixture = try ServerFixture()
        let harness = fixture.responder()
        try await fixture.server().test { client in
            let sent = try await client.get(path, headers)
            let answered = try await harness.answer(path, headers)
            #expect(answered.status == sent.status)
            var wire = sent.headers
            wire[.date] = nil
            wire[.connection] = nil
            wire[HTTPField.Name("X-Content-Type-Options")!] = nil
            #expect(answered.headers == wire)
            #expect(answered.body == sent.body)
        }
    }

    @Test("a file's bytes come whole, from memory or from disk; a HEAD has none")
    func fileBodies() async throws {
        let fixture = try ServerFixture()
        let large = (0..<(3 * 1024 * 1024 + 17)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try fixture.writeBytes("big.bin", large)
        let responder = fixture.responder()
        let digits = try await responder.answer("/digits.txt")
        #expect(digits.status == .ok && digits.text == "0123456789")
        #expect(digits.headers[.contentLength] == "10")
        #expect(digits.headers[.date] == nil, "the writer adds Date")
        let big = try await responder.answer("/big.bin")
        #expect(big.bytes == large, "a file above the memory limit, read from disk")
        let part = try await responder.answer("/big.bin", [(.range, "bytes=1000000-1000009")])
        #expect(part.status == .partialContent && part.bytes == Array(large[1_000_000...1_000_009]))
        let head = try await responder.answer("/digits.txt", method: .head)
        #expect(head.headers[.contentLength] == "10" && head.body.readableBytes == 0)
    }

    @Test("a decision that waits for a read is decided again once it is done: EXIF density in a JPEG's answer")
    func readThenDecide() async throws {
        let fixture = try ServerFixture(jpegHero: true)
        let file = Array(try #require(FileManager.default.contents(atPath: fixture.root + "/" + ServerFixture.heroPath(Density(2), .jpeg))))
        let answer = try await fixture.responder().answer("/images/hero.jpg", [(.secCHDPR, "2")])
        #expect(answer.status == .ok)
        #expect(Array(answer.bytes.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1], "the APP1 EXIF after SOI")
        #expect(answer.bytes.count > file.count)
        #expect(answer.headers[.contentLength] == String(answer.bytes.count))
        #expect(answer.variant == "/" + ServerFixture.heroPath(Density(2), .jpeg))
    }

    @Test("an answer made off the event loop: the inspector page")
    func madeOffLoop() async throws {
        let answer = try await ServerFixture().responder().answer("/_dppx/")
        #expect(answer.status == .ok)
        #expect(answer.headers[.contentType]?.hasPrefix("text/html") == true)
        #expect(answer.text.contains("images/hero.jpg"), "\(answer.text)")
    }

    @Test("the request's Host lines are checked as the connection checks them")
    func host() async throws {
        let responder = try ServerFixture().responder()
        let missing = try await responder.answer("/digits.txt", host: false)
        #expect(missing.status == .badRequest && missing.closesConnection)
        let twice = try await responder.answer("/digits.txt", [(HTTPField.Name("Host")!, "example.com")])
        #expect(twice.status == .badRequest && twice.closesConnection)
        let old = try await responder.answer("/digits.txt", version: .http1_0, host: false)
        #expect(old.status == .ok && !old.closesConnection, "HTTP/1.0 needs no Host: \(old.status) \(old.text)")
    }
}
