import DPPXCore
import DPPXServer
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("dppx serve's access log")
struct ServeAccessLogTests {
    @Test("one line per request: method, path, status, bytes, duration and the variant chosen")
    func oneLinePerRequest() async throws {
        let fixture = try ServerFixture()
        let capture = LogCapture()
        try await fixture.server(accessLog: capture.logger()).test { client in
            _ = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            _ = try await client.get("/digits.txt", [(.range, "bytes=0-3")])
            _ = try await client.get("/missing.txt")
            _ = try await client.get("/style.css", method: .head)
        }
        let lines = capture.messages
        #expect(lines.count == 4, "\(lines)")
        let heroBytes = ServerFixture.heroBody(Density(2), .jpeg).utf8.count
        #expect(lines[0].range(of: #"^info: GET /images/hero\.jpg 200 \#(heroBytes) B \d+\.\d ms -> /images/hero@2x\.jpg$"#, options: .regularExpression) != nil, "\(lines[0])")
        #expect(lines[1].range(of: #"^info: GET /digits\.txt 206 4 B \d+\.\d ms$"#, options: .regularExpression) != nil, "\(lines[1])")
        #expect(lines[2].hasPrefix("info: GET /missing.txt 404 "), "\(lines[2])")
        #expect(lines[3].range(of: #"^info: HEAD /style\.css 200 0 B"#, options: .regularExpression) != nil, "\(lines[3])")
    }

    @Test("the entry's text")
    func entryText() {
        let entry = AccessLogEntry(method: "GET", target: "/a\nb?dpr=2", status: 200, bytes: 12, variant: "/a@2x.jpg",
                                   duration: .microseconds(1534))
        #expect(entry.description == "GET /a\\u{a}b?dpr=2 200 12 B 1.5 ms -> /a@2x.jpg")
        let failed = AccessLogEntry(method: "GET", target: "/x", status: 500, bytes: nil, variant: nil, duration: .seconds(2))
        #expect(failed.description == "GET /x 500 - B 2000.0 ms")
    }
}

