import DPPXBuild
import DPPXCore
import DPPXRewrite
import DPPXTestSupport
@testable import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// What a hostile or broken client can do to a connection, over real sockets: the protocol's
/// rules (HTTP/1.0, `Host`, huge ranges), the timeouts, and memory held for a client that never
/// reads.
@Suite("dppx serve against hostile connections")
struct ServeHardeningTests {
    @Test("HTTP/1.0 without keep-alive is answered with Connection: close and closed; with keep-alive it stays open")
    func http10() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        defer { Task { try? await running.shutdown() } }
        let plain = try RawHTTPConnection(port: running.port, timeout: .seconds(5))
        try await plain.send("GET /digits.txt HTTP/1.0\r\n\r\n")
        let answer = try await plain.readResponse()
        #expect(answer.status == 200 && answer.text == "0123456789")
        #expect(answer.header("Connection")?.lowercased() == "close")
        #expect(await plain.isClosedByServer())

        let kept = try RawHTTPConnection(port: running.port, timeout: .seconds(5))
        for _ in 0..<2 {
            try await kept.send("GET /digits.txt HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let again = try await kept.readResponse()
            #expect(again.status == 200 && again.header("Connection")?.lowercased() == "keep-alive")
        }
        // HTTP/1.1 asking to close.
        try await kept.send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try await kept.readResponse().header("Connection")?.lowercased() == "close")
        #expect(await kept.isClosedByServer())
    }

    @Test("an HTTP/1.1 request without Host, or with two, gets 400 and the connection closes",
          arguments: ["", "Host: a\r\nHost: b\r\n"])
    func host(lines: String) async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        defer { Task { try? await running.shutdown() } }
        let connection = try RawHTTPConnection(port: running.port, timeout: .seconds(5))
        try await connection.send("GET /digits.txt HTTP/1.1\r\n\(lines)\r\n")
        let answer = try await connection.readResponse()
        #expect(answer.status == 400)
        #expect(answer.text.contains("Host"))
        #expect(await connection.isClosedByServer())
    }

    @Test("a request that is not HTTP gets a 400 page that says so without the parser's internals, and the connection closes")
    func notHTTP() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        defer { Task { try? await running.shutdown() } }
        let connection = try RawHTTPConnection(port: running.port, timeout: .seconds(5))
        try await connection.send("GET /digits.txt HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        let answer = try await connection.readResponse()
        #expect(answer.status == 400)
        #expect(answer.text.contains("the request is not valid HTTP/1.1."), "\(answer.text)")
        #expect(!answer.text.contains("HTTPParserError") && !answer.text.contains("invalid"), "\(answer.text)")
        #expect(await connection.isClosedByServer())
    }

    @Test("a range whose end is past any file size is served to the end; one that starts past it is 416")
    func hugeRange() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().test { client in
            let tail = try await client.get("/digits.txt", [(.range, "bytes=2-9223372036854775807")])
            #expect(tail.status == .partialContent)
            #expect(tail.text == "23456789")
            #expect(tail.headers[.contentRange] == "bytes 2-9/10")
            let beyond = try await client.get("/digits.txt", [(.range, "bytes=99999999999999999999-")])
            #expect(beyond.status == .rangeNotSatisfiable)
        }
        #expect(ByteRange(header: "bytes=49999990-9223372036854775807", size: 50_000_000) == .satisfiable(49_999_990...49_999_999))
        #expect(ByteRange(header: "bytes=0-99999999999999999999999", size: 10) == .satisfiable(0...9))
        #expect(ByteRange(header: "bytes=-99999999999999999999999", size: 10) == .satisfiable(0...9))
    }

    @Test("every answer says X-Content-Type-Options: nosniff; an SVG's also carries a Content-Security-Policy that sandboxes it")
    func noSniffAndSandboxedSVG() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        defer { Task { try? await running.shutdown() } }
        let page = try await RawHTTPConnection(port: running.port, timeout: .seconds(5)).request("/")
        let tag = try #require(page.header("ETag"))
        let requests: [(path: String, headers: [String: String], status: Int)] = [
            ("/", [:], 200), ("/digits.txt", [:], 200), ("/digits.txt", ["Range": "bytes=2-3"], 206),
            ("/", ["If-None-Match": tag], 304), ("/docs", [:], 301), ("/missing.txt", [:], 404),
            ("/images/hero.jpg", ["Sec-CH-DPR": "2"], 200), ("/_dppx/dpr.js", [:], 200), ("/icons/arrow.svg", [:], 200),
        ]
        for request in requests {
            let answer = try await RawHTTPConnection(port: running.port, timeout: .seconds(5)).request(request.path, headers: request.headers)
            #expect(answer.status == request.status, "\(request)")
            #expect(answer.header("X-Content-Type-Options") == "nosniff", "\(request): \(answer.headers)")
            let policy = answer.header("Content-Security-Policy")
            if request.path.hasSuffix(".svg") {
                #expect(answer.header("Content-Type") == "image/svg+xml" && policy == SVGPolicy.contentSecurityPolicy, "\(answer.headers)")
            } else {
                #expect(policy == nil, "\(request): \(answer.headers)")
            }
        }
    }

    @Test("a symbolic link inside ROOT to a hidden file or folder is hidden too")
    func linkToHidden() async throws {
        let fixture = try ServerFixture()
        try fixture.write(".config/secret.txt", "\(ServerFixture.secretMarker) config\n")
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/envlink.txt", withDestinationPath: ".hidden")
        try FileManager.default.createSymbolicLink(atPath: fixture.root + "/config", withDestinationPath: ".config")
        try await fixture.server().test { client in
            for path in ["/envlink.txt", "/config/secret.txt"] {
                let response = try await client.get(path)
                #expect(response.status == .notFound, "\(path)")
                #expect(!response.text.contains(ServerFixture.secretMarker), "\(path)")
            }
            #expect(try await client.get("/inside.css").status == .ok, "a link to a visible file still works")
        }
    }

    /// The rule, step by step: `ConnectionStateTests.dribbledBody`. Here its wiring, with a short
    /// timeout.
    @Test("a request body dribbled a byte at a time is cut off at the timeout", arguments: [
        "POST /digits.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n",
        "GET /digits.txt HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    ])
    func dribbledBody(head: String) async throws {
        try await ExclusiveTests.shared.run {
            let fixture = try ServerFixture()
            let running = try await fixture.server(idleTimeout: .milliseconds(400)).start()
            defer { Task { try? await running.shutdown() } }
            let connection = try RawHTTPConnection(port: running.port, timeout: .seconds(3))
            try await connection.send(head)
            // One byte every 100 ms for 1.2 s: each arrives well within the timeout.
            let chunked = head.contains("chunked")
            for _ in 0..<12 {
                try await Task.sleep(for: .milliseconds(100))
                guard connection.sendWithoutWaiting(Array((chunked ? "1\r\na\r\n" : "a").utf8)) > 0 else { break }
            }
            let rest = try await offPool { connection.drainBlocking() }
            #expect(rest.ended, "the connection was still open 1.2 s into a body with a 0.4 s timeout")
        }
    }

    /// The rule, step by step: `ConnectionStateTests.progressDeadline` and
    /// `stalledReaderOfMemory`. Here its wiring, with a short timeout.
    @Test("a client that stops reading a download is cut off at the timeout")
    func stalledReader() async throws {
        try await ExclusiveTests.shared.run {
            let fixture = try ServerFixture()
            let size = 32 * 1024 * 1024
            try fixture.writeBytes("big.bin", [UInt8](repeating: 1, count: size))
            let running = try await fixture.server(idleTimeout: .milliseconds(400)).start()
            defer { Task { try? await running.shutdown() } }
            let connection = try RawHTTPConnection(port: running.port, timeout: .seconds(5))
            try await connection.send("GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
            // Not reading: nothing to wait on but the time itself, three timeouts.
            try await Task.sleep(for: .milliseconds(1200))
            let received = try await offPool { connection.drainBlocking() }
            #expect(received.ended, "still open 1.2 s after the client stopped reading, with a 0.4 s timeout")
            #expect(received.bytes < size, "the whole download was sent")
        }
    }

    /// Clients for the pipelining test; `bench/soak` runs 300 (`DPPX_SOAK_PIPELINERS`).
    static let pipeliners = Int(ProcessInfo.processInfo.environment["DPPX_SOAK_PIPELINERS"] ?? "") ?? 150

    /// The reproducer of a stalled-reader attack: each client's receive window is 4 KB, and it
    /// sends 200 requests for a negotiated JPEG (EXIF density written in) every 50 ms. What
    /// one client may hold is one small read of requests parsed, one answer's pending writes
    /// (slices of the shared file) and one open file: about 30 KB, so 300 clients add well under
    /// 30 MB. NIO's default reads held some 340 parsed requests (150-180 KB) per client.
    @Test("clients that pipeline requests and never read the answers hold under 60 KB each")
    func pipeliningWithoutReading() async throws {
        try await ExclusiveTests.shared.run {
            let fixture = try ServerFixture(jpegHero: true)
            DescriptorLimit.raiseToHard()
            let running = try await fixture.server(idleTimeout: .seconds(60)).start()
            defer { Task { try? await running.shutdown() } }
            let port = running.port
            // The variant is in memory and its EXIF prefix made before the clients come.
            let warm = try await RawHTTPConnection(port: port, timeout: .seconds(5)).request("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"])
            #expect(warm.status == 200 && warm.header("Content-DPR") == nil && warm.header("Content-Location") == "/images/hero@2x.jpg",
                    "the hero's 2x answer does not state its density in EXIF: \(warm.headers)")
            try await Task.sleep(for: .milliseconds(200))
            let before = ServeLoadTests.residentKilobytes()
            let request = Array(String(repeating: "GET /images/hero.jpg HTTP/1.1\r\nHost: x\r\nSec-CH-DPR: 2\r\n\r\n", count: 200).utf8)
            let (sent, peak) = try await Self.pipelineWithoutReading(request, connections: Self.pipeliners, port: port, from: before)
            let growth = peak - before
            #expect(sent > 0)
            // 60 KB each and 4 MB for whatever tests run alongside: 22 MB for 300 clients.
            #expect(growth < 4096 + Self.pipeliners * 60,
                    "resident memory grew by \(growth / 1024) MB (\(growth / Self.pipeliners) KB each) for \(Self.pipeliners) connections that never read (\(sent / 1024) KB of requests sent)")
            print("pipelining without reading: \(Self.pipeliners) connections, \(sent / 1024) KB of requests, resident memory +\(growth / 1024) MB (\(growth / Self.pipeliners) KB each)")
            // The server still answers others.
            let started = ContinuousClock.now
            let other = try? await RawHTTPConnection(port: port, timeout: .seconds(30)).request("/digits.txt")
            #expect(other?.status == 200, "no answer after \(ContinuousClock.now - started)")
        }
    }

    /// A page made per request ([rewrite]'s srcset, dev mode's reload script) is made once per
    /// version of its file and shared by every answer, as a file in memory is: 300 clients that
    /// pipeline requests for a 1 MB page and never read hold one copy of it, not one each (they
    /// grew the server by 290 MB with [rewrite], 590 MB in dev mode).
    @Test("300 clients pipelining a 1 MB made page and never reading grow the server by under 30 MB", arguments: ["rewrite", "development"])
    func pipeliningMadePages(mode: String) async throws {
        try await ExclusiveTests.shared.run {
            let fixture = try ServerFixture()
            let paragraph = "<p>" + String(repeating: "words ", count: 160) + "</p>\n"
            let page = "<!doctype html><html><body><img src=\"images/hero.jpg\" alt=x>\n"
                + String(repeating: paragraph, count: 1_000_000 / paragraph.utf8.count) + "</body></html>\n"
            try fixture.write("page.html", page)
            try FileManager.default.createDirectory(atPath: fixture.scratch("src"), withIntermediateDirectories: true)
            DescriptorLimit.raiseToHard()
            let development = mode == "development"
                ? DevelopmentOptions(build: BuildOptions(sourceRoot: fixture.scratch("src"), outputRoot: fixture.scratch("out"), jobs: 1,
                                                         cacheDirectory: fixture.scratch("cache")))
                : nil
            let running = try await fixture.server(idleTimeout: .seconds(60), development: development,
                                                   rewrite: development == nil ? RewriteOptions() : nil).start()
            defer { Task { try? await running.shutdown() } }
            let port = running.port
            let warm = try await RawHTTPConnection(port: port, timeout: .seconds(10)).request("/page.html")
            #expect(warm.status == 200 && warm.body.count > 1_000_000)
            #expect(development != nil ? warm.text.contains(LiveReloadScript.tag) : warm.text.contains("srcset="), "the page is made")
            try await Task.sleep(for: .milliseconds(200))
            let clients = 300
            let before = ServeLoadTests.residentKilobytes()
            let request = Array(String(repeating: "GET /page.html HTTP/1.1\r\nHost: x\r\n\r\n", count: 50).utf8)
            let (sent, peak) = try await Self.pipelineWithoutReading(request, connections: clients, port: port, from: before)
            let growth = peak - before
            #expect(sent > 0)
            #expect(growth < 30 * 1024, "\(mode): resident memory grew by \(growth / 1024) MB for \(clients) connections that never read a 1 MB page")
            let started = ContinuousClock.now
            let other = try? await RawHTTPConnection(port: port, timeout: .seconds(30)).request("/digits.txt")
            #expect(other?.status == 200, "no answer after \(ContinuousClock.now - started)")
        }
    }

    /// `connections` clients that send `request` over and over for 3 s and never read: the
    /// bytes sent, and the peak resident memory (KB) seen meanwhile, starting from `before`.
    static func pipelineWithoutReading(_ request: [UInt8], connections count: Int, port: Int,
                                       from before: Int) async throws -> (sent: Int, peak: Int) {
        try await offPool { () -> (Int, Int) in
            let connections = try (0..<count).map { _ in
                try RawHTTPConnection(port: port, timeout: .seconds(5), receiveBuffer: 4096)
            }
            var total = 0
            var peak = before
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline {
                for connection in connections { total += connection.sendWithoutWaiting(request) }
                peak = max(peak, ServeLoadTests.residentKilobytes())
                usleep(50_000)
            }
            return (total, peak)
        }
    }
}
