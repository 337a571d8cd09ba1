import DPPXCore
@testable import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTPTypes
import Testing

/// Files in memory are answered on the event loop, below Hummingbird: the same answers as the
/// middleware path, in the same order.
@Suite("dppx serve answers files in memory on the event loop")
struct ServeInMemoryTests {
    /// Requests covering what a file answer depends on: negotiation, validators, ranges, HEAD.
    static let requests: [(path: String, method: HTTPRequest.Method, headers: [(HTTPField.Name, String)])] = [
        ("/images/hero.jpg", .get, []),
        ("/images/hero.jpg", .get, [(.secCHDPR, "1.2")]),
        ("/images/hero.jpg", .get, [(.secCHDPR, "3"), (.accept, "image/avif,image/webp,*/*")]),
        ("/images/hero.jpg", .get, [(.dprHint, "2"), (.cookie, "a=b; dpr=1")]),
        ("/images/hero.jpg", .get, [(.cookie, "dpr=2")]),
        ("/images/hero.jpg?dpr=1.5", .get, []),
        ("/images/hero.jpg", .get, [(.secCHDPR, "2"), (.ifNoneMatch, ServerFixture.heroETag(Density(2), .jpeg))]),
        ("/images/hero.jpg", .get, [(.secCHDPR, "2"), (.ifNoneMatch, ServerFixture.heroETag(Density(1), .jpeg))]),
        ("/images/hero.jpg", .head, [(.secCHDPR, "2")]),
        ("/images/hero.jpg", .get, [(.secCHDPR, "2"), (.range, "bytes=2-9")]),
        ("/images/hero@1.5x.jpg", .get, []),
        ("/style.css", .get, []),
        ("/style.css", .get, [(.range, "bytes=-5")]),
        ("/digits.txt", .get, [(.range, "bytes=3-")]),
        ("/digits.txt", .head, []),
        ("/icons/arrow.svg", .get, [(.secCHDPR, "2")]),
        ("/inside.css", .get, []),
        ("/", .get, []),
        ("/docs", .get, []),
        ("/missing.png", .get, []),
        ("/escape.txt", .get, []),
        ("/digits.txt", .get, [(.range, "bytes=50-60")]),
    ]

    @Test("every answer, asked twice (read, then from memory), equals the middleware path's")
    func sameAnswers() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp, .avif])
        let inMemory = fixture.server()
        var middlewareOnly = fixture.server()
        middlewareOnly.answersFilesFromMemory = false
        let slowApplication = middlewareOnly.makeApplication()
        try await inMemory.makeApplication().test(.live) { fast in
            try await slowApplication.test(.live) { slow in
                for request in Self.requests {
                    for round in 1...2 {
                        let expected = try await slow.get(request.path, method: request.method, request.headers)
                        let actual = try await fast.get(request.path, method: request.method, request.headers)
                        let context = "\(request.method) \(request.path) \(request.headers), round \(round)"
                        #expect(actual.status == expected.status, "\(context)")
                        #expect(actual.text == expected.text, "\(context)")
                        #expect(Self.comparable(actual.headers) == Self.comparable(expected.headers), "\(context)")
                        #expect(actual.headers[.date] != nil, "\(context)")
                    }
                }
            }
        }
    }

    /// Headers as name/value pairs in order, without `Date` (which may tick between the two).
    static func comparable(_ fields: HTTPFields) -> [String] {
        fields.filter { $0.name != .date }.map { "\($0.name): \($0.value)" }
    }

    /// The handler alone, over ROOT's files with `digits.txt` and the 2x hero in memory.
    func handlerInChannel(_ fixture: ServerFixture) async throws -> (EmbeddedChannel, StaticResponder) {
        let files = RootedFileSystem(root: fixture.root)
        let responder = StaticResponder(files: files, manifests: ManifestStore(root: fixture.root), cachePolicy: .revalidate)
        for path in ["digits.txt", ServerFixture.heroPath(Density(2), .jpeg)] {
            let identity = try #require(files.entry(path))
            _ = try await files.contents(of: files.root + "/" + path, identity: identity)
        }
        let channel = EmbeddedChannel(handler: InMemoryFileHandler(responder: responder, accessLogger: nil))
        return (channel, responder)
    }

    static func head(_ path: String, _ fields: HTTPFields = [:]) -> HTTPRequestPart {
        .head(HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: path, headerFields: fields))
    }

    @Test("a file in memory is answered in the channel; one not read yet goes on to Hummingbird")
    func answeredOrPassedOn() async throws {
        let fixture = try ServerFixture()
        let (channel, _) = try await handlerInChannel(fixture)
        try channel.writeInbound(Self.head("/images/hero.jpg", [.secCHDPR: "2"]))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        guard case .head(let response) = try #require(try channel.readOutbound(as: HTTPResponsePart.self)) else {
            Issue.record("no response head"); return
        }
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentLocation] == "/images/hero@2x.jpg")
        guard case .body(let body) = try #require(try channel.readOutbound(as: HTTPResponsePart.self)) else {
            Issue.record("no body"); return
        }
        #expect(String(buffer: body) == ServerFixture.heroBody(Density(2), .jpeg))
        guard case .end = try #require(try channel.readOutbound(as: HTTPResponsePart.self)) else {
            Issue.record("no end"); return
        }
        #expect(try channel.readInbound(as: HTTPRequestPart.self) == nil, "an answered request must not reach Hummingbird")

        // style.css was never read: Hummingbird reads it (and it is in memory next time).
        try channel.writeInbound(Self.head("/style.css"))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        guard case .head(let passed) = try #require(try channel.readInbound(as: HTTPRequestPart.self)) else {
            Issue.record("not passed on"); return
        }
        #expect(passed.path == "/style.css")
    }

    @Test("errors, HTML pages, requests with a body and Connection: close go on to Hummingbird", arguments: [
        ("/missing.txt", [:] as [String: String]), ("/index.html", [:]), ("/../etc/passwd", [:]),
        ("/digits.txt", ["Connection": "close"]), ("/digits.txt", ["Range": "bytes=40-50"]),
        ("/digits.txt", ["Content-Length": "5"]), ("/digits.txt", ["Transfer-Encoding": "chunked"]),
    ])
    func passedOn(path: String, headers: [String: String]) async throws {
        let fixture = try ServerFixture()
        let (channel, _) = try await handlerInChannel(fixture)
        var fields = HTTPFields()
        for (name, value) in headers { fields[HTTPField.Name(name)!] = value }
        try channel.writeInbound(Self.head(path, fields))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil)
        #expect(try channel.readInbound(as: HTTPRequestPart.self) != nil)
    }

    @Test("while Hummingbird owes a response, later requests wait their turn behind it (pipelining)")
    func pipelinedOrder() async throws {
        let fixture = try ServerFixture()
        let (channel, _) = try await handlerInChannel(fixture)
        try channel.writeInbound(Self.head("/style.css"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        // digits.txt is in memory, but style.css's answer has not gone out yet.
        try channel.writeInbound(Self.head("/digits.txt"))
        try channel.writeInbound(HTTPRequestPart.end(nil))
        #expect(try channel.readOutbound(as: HTTPResponsePart.self) == nil, "answered before the earlier request")
        var passedOn = 0
        while let part = try channel.readInbound(as: HTTPRequestPart.self) { if case .head = part { passedOn += 1 } }
        #expect(passedOn == 2)

        // Both answered by Hummingbird: the handler answers again.
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPResponsePart.head(HTTPResponse(status: .ok)))
            try channel.writeOutbound(HTTPResponsePart.end(nil))
        }
        while try channel.readOutbound(as: HTTPResponsePart.self) != nil {}
        try channel.writeInbound(Self.head("/digits.txt"))
        guard case .head(let response) = try #require(try channel.readOutbound(as: HTTPResponsePart.self)) else {
            Issue.record("not answered"); return
        }
        #expect(response.status == .ok)
    }

    @Test("the access log gets the same line for an answer from memory")
    func accessLogLine() async throws {
        let fixture = try ServerFixture()
        let capture = LogCapture()
        try await fixture.server(accessLog: capture.logger()).makeApplication().test(.live) { client in
            for _ in 0..<2 { _ = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")]) }
        }
        let lines = capture.messages
        #expect(lines.count == 2, "\(lines)")
        let heroBytes = ServerFixture.heroBody(Density(2), .jpeg).utf8.count
        for line in lines {
            #expect(line.range(of: #"^info: GET /images/hero\.jpg 200 \#(heroBytes) B \d+\.\d ms -> /images/hero@2x\.jpg$"#, options: .regularExpression) != nil, "\(line)")
        }
    }
}
