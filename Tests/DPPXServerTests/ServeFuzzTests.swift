import DPPXCore
@testable import DPPXServer
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Testing

/// Thousands of requests with hostile hints, cookies, queries, Accept, Range, validators, methods
/// and paths, from a seeded generator (`DPPX_FUZZ_SEED`, `DPPX_FUZZ_COUNT` to vary them). The
/// server must never crash or fail (5xx), never leak a file outside ROOT or a hidden one, and
/// whenever it answers the negotiated image URL it must send exactly one of the manifest's
/// variants, saying which in `Content-Location`, `Content-DPR` and `ETag`.
@Suite("dppx serve under fuzzed requests")
struct ServeFuzzTests {
    static let seed = UInt64(ProcessInfo.processInfo.environment["DPPX_FUZZ_SEED"] ?? "") ?? 0xD99C_0001
    static let count = Int(ProcessInfo.processInfo.environment["DPPX_FUZZ_COUNT"] ?? "") ?? 3000
    static let allowedStatuses: Set<Int> = [200, 206, 301, 304, 400, 404, 405, 416]

    /// A response as the checks read it, from a client library or from a raw socket.
    struct Observed {
        let status: Int
        let header: (HTTPField.Name) -> String?
        let body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Through Hummingbird's test client, over a socket.
    @Test("seeded hostile requests: no crash, statuses in the expected set, negotiated answers are manifest variants")
    func fuzz() async throws {
        let fixture = try ServerFixture(formats: Self.formats)
        try await fixture.server().test { client in
            try await Self.run { request in
                // A target without its leading slash is not HTTP: answered 400, and the
                // connection closed; characters a URL may not hold are refused by the client
                // library. The raw test below sends those.
                guard request.isWellFormedOnTheWire, request.uri.hasPrefix("/"),
                      !request.uri.contains(where: { "\"<>\\^`{|}".contains($0) })
                else { return nil }
                let response = try await client.execute(uri: request.uri, method: request.method, headers: request.headers)
                return Observed(status: Int(response.status.code), header: { response.headers[$0] },
                                body: Array(response.body.readableBytesView))
            }
        }
    }

    /// Over raw sockets, byte for byte as written (no client library normalising anything),
    /// through every layer of the running server on one connection after another: HTTP parsing,
    /// the connection handler, the in-memory file cache, answers given again. A connection the
    /// server closed (after a 400, say) is replaced for the next request.
    @Test("the same over raw sockets, byte for byte, through the whole server")
    func fuzzOverSockets() async throws {
        // Thousands of requests keep a core busy: not beside the timing-sensitive tests.
        try await ExclusiveTests.shared.run { try await Self.fuzzOverSocketsExclusive() }
    }

    static func fuzzOverSocketsExclusive() async throws {
        let fixture = try ServerFixture(formats: Self.formats)
        let server = try await fixture.server().start()
        do {
            var connection = try RawHTTPConnection(port: server.port)
            var sent = 0
            try await Self.run { request in
                guard request.isWellFormedOnTheWire else { return nil }
                var text = "\(request.method.rawValue) \(request.uri) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                for field in request.headers { text += "\(field.name.rawName): \(field.value)\r\n" }
                text += "\r\n"
                // Each request twice: decided, then given again on the same connection.
                let response = try await exchange(text, head: request.method == .head, on: &connection, port: server.port)
                let again = try await exchange(text, head: request.method == .head, on: &connection, port: server.port)
                sent += 1
                #expect(again.status == response.status && again.body == response.body
                        && again.headers.filter { $0.name != "Date" }.elementsEqual(response.headers.filter { $0.name != "Date" }, by: ==),
                        "the same request again got another answer: \(request)")
                return Observed(status: response.status, header: { response.header($0.rawName) }, body: response.body)
            }
            #expect(sent > count / 2)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    /// Sends `text` and reads the answer; a connection the server closed (after a 400, say) is
    /// replaced, before the request or after an answer that says `Connection: close`.
    static func exchange(_ text: String, head: Bool, on connection: inout RawHTTPConnection, port: Int) async throws -> RawHTTPConnection.Response {
        let response: RawHTTPConnection.Response
        do {
            try await connection.send(text)
            response = try await connection.readResponse(bodyExpected: !head)
        } catch {
            connection = try RawHTTPConnection(port: port)
            try await connection.send(text)
            response = try await connection.readResponse(bodyExpected: !head)
        }
        if response.header("Connection")?.lowercased() == "close" {
            connection = try RawHTTPConnection(port: port)
        }
        return response
    }

    static let formats: [ImageFormat] = [.jpeg, .webp, .avif]

    /// Sends the seeded requests through `send` (nil: not sent) and checks every answer.
    static func run(_ send: (HostileRequests.Request) async throws -> Observed?) async throws {
        var variants: [String: (density: Density, format: ImageFormat)] = [:]
        for density in ServerFixture.heroDensities {
            for format in formats { variants["/" + ServerFixture.heroPath(density, format)] = (density, format) }
        }
        var generator = HostileRequests(seed: seed)
        var statuses: [Int: Int] = [:]
        var negotiated = 0
        var sent = 0
        for index in 0..<count {
            let request = generator.next()
            let context = "request \(index) (seed \(seed)): \(request)"
            guard let response = try await send(request) else { continue }
            sent += 1
            let status = response.status
            statuses[status, default: 0] += 1
            #expect(allowedStatuses.contains(status), "status \(status) for \(context)")
            #expect(!response.text.contains(ServerFixture.secretMarker), "leaked a file outside ROOT: \(context)")
            guard request.isNegotiatedImage, request.method == .get || request.method == .head else { continue }
            switch status {
            case 200, 206:
                negotiated += 1
                let location = response.header(.contentLocation) ?? "(none)"
                guard let variant = variants[location] else {
                    Issue.record("Content-Location \(location) is not a manifest variant: \(context)")
                    continue
                }
                let body = ServerFixture.heroBody(variant.density, variant.format)
                // The fixture's variants are text, which cannot carry EXIF density: Content-DPR says it above 1x.
                #expect(response.header(.contentDPR) == (variant.density == Density(1) ? nil : variant.density.description), "\(context)")
                #expect(response.header(.eTag) == ServerFixture.heroETag(variant.density, variant.format), "\(context)")
                #expect(response.header(.contentType) == variant.format.mediaType, "\(context)")
                if request.method == .head {
                    #expect(response.body.isEmpty, "\(context)")
                } else if status == 200 {
                    #expect(response.text == body, "\(context)")
                } else {
                    #expect(!response.text.isEmpty && body.contains(response.text), "\(context)")
                }
            case 304:
                let tag = response.header(.eTag) ?? "(none)"
                #expect(variants.values.contains { ServerFixture.heroETag($0.density, $0.format) == tag }, "\(context)")
            case 416:
                #expect(request.headers[.range] != nil, "\(context)")
            default:
                Issue.record("status \(status) for the image URL: \(context)")
            }
        }
        // The generator must actually reach the interesting answers, or the test proves little.
        #expect(negotiated > sent / 5, "\(statuses)")
        for status in [200, 206, 304, 400, 404] { #expect(statuses[status, default: 0] > 0, "no \(status) in \(statuses)") }
    }
}

/// SplitMix64: small, fast and the same on every platform, so a failing seed can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Requests built from hostile pieces.
struct HostileRequests {
    struct Request: CustomStringConvertible {
        let method: HTTPRequest.Method
        let uri: String
        let headers: HTTPFields

        /// Whether the path (without the query, percent-decoded) is the hero's 1x URL. A `#` is
        /// never sent by browsers; a request target holding one names another path (400 or 404).
        var isNegotiatedImage: Bool {
            let path = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            return String(path).removingPercentEncoding == "/images/hero.jpg"
        }

        /// Whether it can go over a socket as it is: a request target with a space or a control
        /// character is not one HTTP request line, and NIO's parser refuses the connection on
        /// bytes outside printable ASCII in a header, before any of dppx's code runs.
        var isWellFormedOnTheWire: Bool {
            let targetOK = uri.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
            let headersOK = headers.allSatisfy { field in field.value.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 < 0x7F) } }
            return targetOK && headersOK
        }

        var description: String {
            let fields = headers.map { "\($0.name): \($0.value.prefix(120))" }.joined(separator: " | ")
            return "\(method) \(uri.prefix(200).debugDescription) [\(fields)]"
        }
    }

    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &random) < probability }

    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }

    mutating func next() -> Request {
        let method: HTTPRequest.Method = chance(0.7) ? .get : chance(0.6) ? .head : pick([.post, .put, .delete, .options, .patch])
        var uri = chance(0.55) ? pick(["/images/hero.jpg", "/images/%68ero.jpg", "/images/hero%2Ejpg"]) : path()
        if chance(0.3) { uri += "?dpr=" + (chance(0.5) ? percentEncoded(value()) : value().replacingOccurrences(of: "#", with: "")) }
        if chance(0.05) { uri += "?dpr=1&dpr=2" }
        if chance(0.05) { uri += "#" + value() }
        var headers = HTTPFields()
        let hintCount = chance(0.4) ? 0 : chance(0.8) ? 1 : 2
        for _ in 0..<hintCount { headers.append(HTTPField(name: .secCHDPR, value: value())) }
        if chance(0.3) { headers.append(HTTPField(name: .dprHint, value: value())) }
        if chance(0.3) { headers.append(HTTPField(name: .cookie, value: cookie())) }
        if chance(0.4) { headers.append(HTTPField(name: .accept, value: accept())) }
        if chance(0.2) { headers.append(HTTPField(name: .range, value: range())) }
        if chance(0.1) { headers.append(HTTPField(name: .ifRange, value: pick(validators))) }
        if chance(0.15) { headers.append(HTTPField(name: .ifNoneMatch, value: pick(validators))) }
        if chance(0.05) { headers.append(HTTPField(name: .ifModifiedSince, value: pick(["Thu, 01 Jan 1970 00:00:00 GMT", "garbage", "Fri, 31 Dec 9999 23:59:59 GMT"]))) }
        return Request(method: method, uri: uri, headers: headers)
    }

    let validators = [
        ServerFixture.heroETag(Density(1), .jpeg), ServerFixture.heroETag(Density(2), .jpeg), ServerFixture.heroETag(Density(1.5), .avif),
        "W/" + ServerFixture.heroETag(Density(2), .webp), "*", "\"\"", "\"unterminated", "W/", ",,,", String(repeating: "\"a\", ", count: 500),
    ]

    /// A DPR value: mostly hostile, sometimes valid.
    mutating func value() -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0, 1: return pick(["1", "1.5", "2", "3", "0.75", "1.25", "2.0", "1.0000001"])
        case 2: return pick(["0", "-0", "-1", "+2", "1e400", "1e-400", "-1e400", "NaN", "nan", "-NaN", "inf", "Infinity", "-Infinity",
                             "0x2", "0b1", "1_5", "1.5.5", "2x", ".5", "5.", "1e1", "1E0", "1,5", " 2 ", "\t2", "２", "١", "½"])
        case 3: return String(repeating: "9", count: Int.random(in: 20...6000, using: &random))
        case 4: return "0." + String(repeating: "0", count: Int.random(in: 1...3000, using: &random)) + "1"
        case 5: return pick(["1, 2", "2;q=1", "1,,2", "2, ", ",2", "\"2\"", "(2)", "[2]", "2 3"])
        case 6: return String((0..<Int.random(in: 1...40, using: &random)).map { _ in
            Character(UnicodeScalar(pick(Array(0...31) + [127, 0x85, 0x2028, 0x202E, 0xFEFF]))!)
        })
        case 7: return pick(["%32", "%00", "%zz", "%", "%2", "%FF%FE", "%E2%80%AE2", "%0d%0aX-Injected: 1"])
        case 8: return pick(["é", "🖼️", "\u{202E}2", "2\u{0}", "\r\nX-Injected: 1", "..", "../../etc/passwd", "/", "\\"])
        case 9: return String((0..<Int.random(in: 100...8000, using: &random)).map { _ in Character(UnicodeScalar(UInt8.random(in: 32...126, using: &random))) })
        case 10: return ""
        default: return String(Double.random(in: -10...10, using: &random))
        }
    }

    mutating func cookie() -> String {
        pick(["dpr=\(value())", "theme=dark; dpr=\(value())", "dpr=2; dpr=1", "dpr", "=2", ";;;", "dpr==2", "a=\(value()); b=c",
              String(repeating: "x=1; ", count: 2000) + "dpr=2", "dpr=\"2\""])
    }

    mutating func accept() -> String {
        pick([
            "image/avif,image/webp,*/*", "image/webp,*/*", "*/*", "image/avif;q=NaN", "image/webp;q=2", "*/*;q=-1",
            "image/avif;q=0,image/webp;q=0", "image/*;q=0.0000001", String(repeating: "image/webp,", count: 2000),
            "image/avif;q=1e400", "image/avif;;;q", ";", ",", "image/", "/webp", "text/html", value(),
        ])
    }

    mutating func range() -> String {
        pick([
            "bytes=0-5", "bytes=5-", "bytes=-5", "bytes=-0", "bytes=0-0", "bytes=5-1", "bytes=0-5,6-10", "bytes=1e3-",
            "items=0-1", "bytes= 0 - 5", "bytes=99999999999999999999-", "bytes=-99999999999999999999999",
            "bytes=9223372036854775807-", "bytes=0-9223372036854775808", "bytes=1000-2000", "bytes=", "bytes=-", value(),
        ])
    }

    mutating func path() -> String {
        let long = String(repeating: "a/", count: Int.random(in: 10...4000, using: &random))
        return pick([
            "/images/hero@2x.jpg", "/images/hero@1.5x.webp", "/images/hero.avif", "/icons/arrow.svg", "/", "/docs", "/docs/",
            "/index.html", "/style.css", "/digits.txt", "/dppx-manifest.json", "/_dppx/dpr.js", "/_dppx/", "/_dppx/inspector",
            "/../outside.txt", "/images/../../outside.txt", "/%2e%2e/outside.txt", "/%2E%2E/%2E%2E/outside.txt",
            "/images/%2e%2e%2f%2e%2e/outside.txt", "/images/..%5c..%5coutside.txt", "/escape/secret.txt", "/escape.txt",
            "/.hidden", "/images/.hidden", "/%2ehidden", "/images/hero.jpg%00", "/images/hero.jpg%00.png", "/images/hero.jpg/",
            "//images//hero.jpg", "/images/./hero.jpg", "/images/HERO.JPG", "/%", "/%zz", "/%c0%ae%c0%ae/outside.txt",
            "/" + long, "/" + long + "../outside.txt", "/images/hero.jpg;dpr=2", "/images/hero\u{0}.jpg", "/images/hero\r\n.jpg",
            "/images/\u{202E}gpj.oreh", "/images/hero.jpg\u{7f}", "/images/%E2%80%AE", "/images/" + percentEncoded(value()),
            "*", "", "images/hero.jpg", "http://127.0.0.1/images/hero.jpg", "/inside.css",
        ])
    }

    func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }
}
