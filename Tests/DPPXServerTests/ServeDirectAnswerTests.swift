import DPPXCore
import DPPXTestSupport
@testable import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

/// Files in memory are answered where NIO parsed the request (`DirectFileHandler`), with bytes
/// written there: the same bytes as Hummingbird's path, in the same order, fresh when a file or
/// the manifest changes.
@Suite("dppx serve answers files in memory directly")
struct ServeDirectAnswerTests {
    /// Requests covering what a file answer depends on: negotiation, validators, ranges, HEAD,
    /// and some that go on to Hummingbird (pages, errors, redirects, links out of ROOT).
    static let requests: [(target: String, method: String, headers: [String: String])] = [
        ("/images/hero.jpg", "GET", [:]),
        ("/images/hero.jpg", "GET", ["Sec-CH-DPR": "1.2"]),
        ("/images/hero.jpg", "GET", ["Sec-CH-DPR": "3", "Accept": "image/avif,image/webp,*/*"]),
        ("/images/hero.jpg", "GET", ["DPR": "2", "Cookie": "a=b; dpr=1"]),
        ("/images/hero.jpg", "GET", ["Cookie": "dpr=2"]),
        ("/images/hero.jpg?dpr=1.5", "GET", [:]),
        ("/images/hero.jpg", "GET", ["Sec-CH-DPR": "2", "If-None-Match": ServerFixture.heroETag(Density(2), .jpeg)]),
        ("/images/hero.jpg", "GET", ["Sec-CH-DPR": "2", "If-None-Match": ServerFixture.heroETag(Density(1), .jpeg)]),
        ("/images/hero.jpg", "HEAD", ["Sec-CH-DPR": "2"]),
        ("/images/hero.jpg", "GET", ["Sec-CH-DPR": "2", "Range": "bytes=2-9"]),
        ("/images/hero@1.5x.jpg", "GET", [:]),
        ("/style.css", "GET", [:]),
        ("/style.css", "GET", ["Range": "bytes=-5"]),
        ("/style.css", "GET", ["If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"]),
        ("/digits.txt", "GET", ["Range": "bytes=3-"]),
        ("/digits.txt", "HEAD", [:]),
        ("/digits.txt", "GET", ["Range": "bytes=50-60"]),
        ("/icons/arrow.svg", "GET", ["Sec-CH-DPR": "2"]),
        ("/inside.css", "GET", [:]),
        ("/", "GET", [:]),
        ("/", "HEAD", [:]),
        ("/docs", "GET", [:]),
        ("/missing.png", "GET", [:]),
        ("/missing.png", "HEAD", [:]),
        ("/escape.txt", "GET", [:]),
        ("/_dppx/dpr.js", "HEAD", [:]),
    ]

    @Test("every answer, asked three times on one connection (read, decided, reused), has the bytes Hummingbird's path sends")
    func sameBytes() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp, .avif])
        let direct = try await fixture.server().start()
        var hummingbirdOnly = fixture.server()
        hummingbirdOnly.answersFilesDirectly = false
        let reference = try await hummingbirdOnly.start()
        let (fastPort, slowPort) = (direct.port, reference.port)
        let exchanges = await Self.outcome {
            try await offPool {
                let fast = try RawHTTPConnection(port: fastPort)
                let slow = try RawHTTPConnection(port: slowPort)
                return try Self.requests.flatMap { request in
                    try (1...3).map { round in
                        (context: "\(request.method) \(request.target) \(request.headers), round \(round)",
                         expected: try slow.requestBlocking(request.target, method: request.method, headers: request.headers),
                         actual: try fast.requestBlocking(request.target, method: request.method, headers: request.headers))
                    }
                }
            }
        }
        try await direct.shutdown()
        try await reference.shutdown()
        for exchange in try exchanges.get() {
            #expect(exchange.actual.status == exchange.expected.status, "\(exchange.context)")
            #expect(exchange.actual.body == exchange.expected.body, "\(exchange.context)")
            #expect(Self.comparable(exchange.actual) == Self.comparable(exchange.expected), "\(exchange.context)")
            #expect(exchange.actual.header("Date") != nil, "\(exchange.context)")
        }
    }

    /// `work`'s result or error, kept until the servers are shut down.
    static func outcome<T>(_ work: () async throws -> T) async -> Result<T, any Error> {
        do { return .success(try await work()) } catch { return .failure(error) }
    }

    /// Header lines in order, as sent, without `Date` (which may tick between the two).
    static func comparable(_ response: RawHTTPConnection.Response) -> [String] {
        response.headers.filter { $0.name != "Date" }.map { "\($0.name): \($0.value)" }
    }

    @Test("a reused answer follows a replaced variant, and a rebuilt manifest, on the same connection")
    func reusedAnswerStaysFresh() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.server().start()
        let port = server.port
        let replaced = ServerFixture.heroBody(Density(2), .jpeg).uppercased() + "!"
        let answers = await Self.outcome {
            try await offPool {
                let connection = try RawHTTPConnection(port: port)
                let ask = { try connection.requestBlocking("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"]) }
                let before = try (1...3).map { _ in try ask() }
                // A build replaces the 2x file (rename: a new file): the next answers are the new one.
                let variantPath = fixture.root + "/" + ServerFixture.heroPath(Density(2), .jpeg)
                try fixture.write(ServerFixture.heroPath(Density(2), .jpeg) + ".tmp", replaced)
                guard rename(variantPath + ".tmp", variantPath) == 0 else { throw RawHTTPConnection.Failure(description: "rename") }
                let afterReplace = try (1...3).map { _ in try ask() }
                // The manifest is rebuilt without the 2x variant: DPR 2 now gets 1.5x.
                var manifest = try Manifest.decode(Array(FileManager.default.contents(atPath: fixture.root + "/" + Manifest.fileName) ?? Data()))
                for index in manifest.images.indices where manifest.images[index].path == "images/hero.jpg" {
                    manifest.images[index].variants.removeAll { $0.density == Density(2) }
                }
                try fixture.writeBytes(Manifest.fileName, manifest.encoded())
                let afterRebuild = try (1...2).map { _ in try ask() }
                return (before, afterReplace, afterRebuild)
            }
        }
        try await server.shutdown()
        let (before, afterReplace, afterRebuild) = try answers.get()
        for answer in before { #expect(answer.text == ServerFixture.heroBody(Density(2), .jpeg)) }
        for answer in afterReplace {
            #expect(answer.text == replaced)
            #expect(answer.header("ETag")?.hasPrefix("W/") == true, "the manifest's hash no longer vouches for these bytes")
        }
        for answer in afterRebuild {
            #expect(answer.header("Content-Location") == "/images/hero@1.5x.jpg")
            #expect(answer.text == ServerFixture.heroBody(Density(1.5), .jpeg))
        }
    }

    @Test("an answer given while the chosen variant was missing is not reused once the variant is back")
    func missingVariantNotReused() async throws {
        let fixture = try ServerFixture()
        let server = try await fixture.server().start()
        let port = server.port
        let variantPath = fixture.root + "/" + ServerFixture.heroPath(Density(2), .jpeg)
        let answers = await Self.outcome {
            try await offPool {
                let connection = try RawHTTPConnection(port: port)
                let ask = { try connection.requestBlocking("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"]) }
                guard rename(variantPath, variantPath + ".away") == 0 else { throw RawHTTPConnection.Failure(description: "rename") }
                let missing = try (1...3).map { _ in try ask() }
                guard rename(variantPath + ".away", variantPath) == 0 else { throw RawHTTPConnection.Failure(description: "rename") }
                return (missing, try ask())
            }
        }
        try await server.shutdown()
        let (missing, back) = try answers.get()
        for answer in missing {
            #expect(answer.text == ServerFixture.heroBody(Density(1), .jpeg), "the plain file stands in")
        }
        #expect(back.text == ServerFixture.heroBody(Density(2), .jpeg))
        #expect(back.header("Content-Location") == "/images/hero@2x.jpg")
    }

    @Test("the access log gets the same line for a direct answer")
    func accessLogLine() async throws {
        let fixture = try ServerFixture()
        let capture = LogCapture()
        let server = try await fixture.server(accessLog: capture.logger()).start()
        let port = server.port
        let asked = await Self.outcome {
            try await offPool {
                let connection = try RawHTTPConnection(port: port)
                for _ in 0..<3 { _ = try connection.requestBlocking("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"]) }
            }
        }
        try await server.shutdown()
        try asked.get()
        let lines = capture.messages
        #expect(lines.count == 3, "\(lines)")
        let heroBytes = ServerFixture.heroBody(Density(2), .jpeg).utf8.count
        for line in lines {
            #expect(line.range(of: #"^info: GET /images/hero\.jpg 200 \#(heroBytes) B \d+\.\d ms -> /images/hero@2x\.jpg$"#,
                               options: .regularExpression) != nil, "\(line)")
        }
    }

    // MARK: The handler alone

    /// NIO's encoder and the handler, over ROOT's files with `digits.txt` and the 2x hero in memory.
    func channel(_ fixture: ServerFixture, idleTimeout: TimeAmount = .seconds(30)) async throws -> EmbeddedChannel {
        let files = RootedFileSystem(root: fixture.root)
        let responder = StaticResponder(files: files, manifests: ManifestStore(root: fixture.root, recheckInterval: .zero),
                                        cachePolicy: .revalidate)
        for path in ["digits.txt", ServerFixture.heroPath(Density(2), .jpeg)] {
            let identity = try #require(files.entry(path))
            _ = try await files.contents(of: files.root + "/" + path, identity: identity)
        }
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
        try channel.pipeline.syncOperations.addHandler(DirectFileHandler(responder: responder, accessLogger: nil, idleTimeout: idleTimeout))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    static func request(_ target: String, method: HTTPMethod = .GET, version: HTTPVersion = .http1_1,
                        _ headers: [(String, String)] = []) -> [HTTPServerRequestPart] {
        [.head(HTTPRequestHead(version: version, method: method, uri: target, headers: HTTPHeaders(headers))), .end(nil)]
    }

    /// Everything written towards the socket so far, as text.
    static func written(_ channel: EmbeddedChannel) throws -> String {
        var text = ""
        while let data = try channel.readOutbound(as: IOData.self) {
            guard case .byteBuffer(let buffer) = data else { continue }
            text += String(buffer: buffer)
        }
        return text
    }

    static func forwarded(_ channel: EmbeddedChannel) throws -> [String] {
        var heads: [String] = []
        while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
            if case .head(let head) = part { heads.append(head.uri) }
        }
        return heads
    }

    @Test("the headers a file answer reads are found in any case, in one pass; repeated lines join as Swift HTTP types join them")
    func fileRequestHeaders() {
        let request = FileRequest(isHead: false, uri: URI("/images/hero.jpg?dpr=2"), headers: [
            (name: "SEC-ch-DPR", value: "2"), (name: "dpr", value: "1.5"), (name: "Cookie", value: "a=b"),
            (name: "cookie", value: "dpr=3"), (name: "ACCEPT", value: "image/webp"), (name: "Range", value: "bytes=0-1"),
            (name: "range", value: "bytes=4-5"), (name: "If-None-Match", value: "\"a\""), (name: "If-Range", value: "\"a\""),
            (name: "If-Modified-Since", value: "Fri, 01 Jan 2100 00:00:00 GMT"), (name: "X-Other", value: "ignored"),
        ])
        #expect(request.secCHDPR == ["2"])
        #expect(request.dpr == ["1.5"])
        #expect(request.cookie == ["a=b", "dpr=3"])
        #expect(request.accept == ["image/webp"])
        #expect(request.range == "bytes=0-1, bytes=4-5")
        #expect(request.ifNoneMatch == ["\"a\""])
        #expect(request.ifRange == "\"a\"")
        #expect(request.ifModifiedSince == "Fri, 01 Jan 2100 00:00:00 GMT")
        #expect(!request.hasUncleanValue)
        #expect(ClientDPR(request).value == Density(2), "the query decides first")
        let unclean = FileRequest(isHead: false, uri: URI("/"), headers: [(name: "Accept", value: " image/webp")])
        #expect(unclean.hasUncleanValue)
        let otherHeader = FileRequest(isHead: false, uri: URI("/"), headers: [(name: "User-Agent", value: "caf\u{E9} ")])
        #expect(!otherHeader.hasUncleanValue, "only the headers read matter")
    }

    @Test("a file in memory is answered in the handler; one not read yet goes on to Hummingbird")
    func answeredOrPassedOn() async throws {
        let fixture = try ServerFixture()
        let channel = try await channel(fixture)
        for part in Self.request("/images/hero.jpg", [("Sec-CH-DPR", "2")]) { try channel.writeInbound(part) }
        let answer = try Self.written(channel)
        #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.contains("\r\nContent-Location: /images/hero@2x.jpg\r\n"))
        #expect(answer.hasSuffix("\r\n\r\n" + ServerFixture.heroBody(Density(2), .jpeg)))
        #expect(try Self.forwarded(channel).isEmpty, "an answered request must not reach Hummingbird")

        // style.css was never read: Hummingbird reads it (and it is in memory next time).
        for part in Self.request("/style.css") { try channel.writeInbound(part) }
        #expect(try Self.written(channel).isEmpty)
        #expect(try Self.forwarded(channel) == ["/style.css"])
    }

    @Test("errors, HTML pages, bodies, other methods and connections that close go on to Hummingbird", arguments: [
        ("/missing.txt", HTTPMethod.GET, HTTPVersion.http1_1, [] as [(String, String)]),
        ("/index.html", .GET, .http1_1, []),
        ("/../etc/passwd", .GET, .http1_1, []),
        ("/docs", .GET, .http1_1, []),
        ("/digits.txt", .GET, .http1_1, [("Connection", "close")]),
        ("/digits.txt", .GET, .http1_0, []),
        ("/digits.txt", .GET, .http1_1, [("Range", "bytes=40-50")]),
        ("/digits.txt", .GET, .http1_1, [("Content-Length", "3")]),
        ("/digits.txt", .GET, .http1_1, [("Expect", "100-continue")]),
        ("/digits.txt", .POST, .http1_1, []),
        ("/_dppx/dpr.js", .GET, .http1_1, []),
        ("http://127.0.0.1/digits.txt", .GET, .http1_1, []),
        ("/images/hero.jpg", .GET, .http1_1, [("Sec-CH-DPR", "2\u{7F}")]),
        ("/images/hero.jpg", .GET, .http1_1, [("sec-ch-dpr", "2 ")]),
        ("/digits.txt", .GET, .http1_1, [("Cookie", "dpr=2; name=caf\u{E9}")]),
    ])
    func passedOn(target: String, method: HTTPMethod, version: HTTPVersion, headers: [(String, String)]) async throws {
        let fixture = try ServerFixture()
        let channel = try await channel(fixture)
        try channel.writeInbound(Self.request(target, method: method, version: version, headers)[0])
        #expect(try Self.written(channel).isEmpty)
        #expect(try Self.forwarded(channel) == [target])
    }

    @Test("while Hummingbird owes a response, later requests wait their turn behind it (pipelining)")
    func pipelinedOrder() async throws {
        let fixture = try ServerFixture()
        let channel = try await channel(fixture)
        for part in Self.request("/style.css") + Self.request("/digits.txt") { try channel.writeInbound(part) }
        // digits.txt is in memory, but style.css's answer has not gone out yet.
        #expect(try Self.written(channel).isEmpty, "answered before the earlier request")
        #expect(try Self.forwarded(channel) == ["/style.css", "/digits.txt"])

        // Both answered by Hummingbird: the handler answers again.
        for _ in 0..<2 {
            try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
            try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        }
        _ = try Self.written(channel)
        for part in Self.request("/digits.txt") { try channel.writeInbound(part) }
        #expect(try Self.written(channel).hasSuffix("\r\n\r\n0123456789"))
    }

    @Test("Hummingbird's answer to a HEAD request loses its body here")
    func headAnswerWithoutBody() async throws {
        let fixture = try ServerFixture()
        let channel = try await channel(fixture)
        // An HTML page goes to Hummingbird (for `Accept-CH`), HEAD or not.
        for part in Self.request("/index.html", method: .HEAD) { try channel.writeInbound(part) }
        #expect(try Self.forwarded(channel) == ["/index.html"])
        let head = HTTPResponseHead(version: .http1_1, status: .ok, headers: ["Content-Length": "4"])
        try channel.writeOutbound(HTTPServerResponsePart.head(head))
        try channel.writeOutbound(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(string: "body"))))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        let written = try Self.written(channel)
        #expect(written.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(written.hasSuffix("\r\n\r\n"), "\(written)")
    }

    @Test("the idle timeout: a quiet connection closes, one waiting for Hummingbird's answer does not")
    func idleTimeout() async throws {
        let fixture = try ServerFixture()
        let quiet = try await channel(fixture, idleTimeout: .seconds(5))
        for part in Self.request("/digits.txt") { try quiet.writeInbound(part) }
        quiet.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(quiet.isActive, "closed before the timeout")
        for part in Self.request("/digits.txt") { try quiet.writeInbound(part) }
        quiet.embeddedEventLoop.advanceTime(by: .seconds(4))
        #expect(quiet.isActive, "a request in between must restart the wait")
        quiet.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(!quiet.isActive, "still open after the idle timeout")

        let waiting = try await channel(fixture, idleTimeout: .seconds(5))
        for part in Self.request("/style.css") { try waiting.writeInbound(part) }
        waiting.embeddedEventLoop.advanceTime(by: .seconds(60))
        #expect(waiting.isActive, "closed while Hummingbird was still answering")
        try waiting.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try waiting.writeOutbound(HTTPServerResponsePart.end(nil))
        waiting.embeddedEventLoop.advanceTime(by: .seconds(6))
        #expect(!waiting.isActive, "still open after the idle timeout that followed the answer")
    }
}
