import DPPXCore
@testable import DPPXServer
import DPPXTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import SystemPackage
import Testing

@Suite("dppx serve's access log")
struct ServeAccessLogTests {
    /// The lines of a log file, without their timestamps (checked once, in `oneLinePerRequest`).
    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Whether `condition` became true within `limit`, checked every 10 ms.
    private func waitUntil(within limit: Duration = .seconds(5), _ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    @Test("one line per request: time, method, path, status, bytes, duration and the variant chosen; small answers written whole and large ones sent in pieces alike")
    func oneLinePerRequest() async throws {
        let fixture = try ServerFixture()
        try fixture.writeBytes("large.bin", Array(repeating: 1, count: AnswerPieces.pieceSize + 10))
        let path = fixture.scratch("access.log")
        let log = try AccessLog(destination: .file(path))
        try await fixture.server(accessLog: log).test { client in
            _ = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            _ = try await client.get("/digits.txt", [(.range, "bytes=0-3")])
            _ = try await client.get("/missing.txt")
            _ = try await client.get("/style.css", method: .head)
            _ = try await client.get("/large.bin")
        }
        log.close()
        let lines = try lines(path)
        #expect(lines.count == 5, "\(lines)")
        let heroBytes = ServerFixture.heroBody(Density(2), .jpeg).utf8.count
        let time = #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ "#
        #expect(lines[0].range(of: time + #"GET /images/hero\.jpg 200 \#(heroBytes) B \d+\.\d ms -> /images/hero@2x\.jpg$"#, options: .regularExpression) != nil, "\(lines[0])")
        #expect(lines[1].range(of: time + #"GET /digits\.txt 206 4 B \d+\.\d ms$"#, options: .regularExpression) != nil, "\(lines[1])")
        #expect(lines[2].range(of: time + "GET /missing.txt 404 ", options: .regularExpression) != nil, "\(lines[2])")
        #expect(lines[3].range(of: time + #"HEAD /style\.css 200 0 B"#, options: .regularExpression) != nil, "\(lines[3])")
        #expect(lines[4].range(of: time + #"GET /large\.bin 200 \#(AnswerPieces.pieceSize + 10) B \d+\.\d ms$"#, options: .regularExpression) != nil, "\(lines[4])")
    }

    @Test("the entry's text, and the timestamp's")
    func entryText() {
        let entry = AccessLogEntry(method: "GET", target: "/a\nb?dpr=2", status: 200, bytes: 12, variant: "/a@2x.jpg",
                                   duration: .microseconds(1534))
        #expect(entry.description == "GET /a\\u{a}b?dpr=2 200 12 B 1.5 ms -> /a@2x.jpg")
        let failed = AccessLogEntry(method: "GET", target: "/x", status: 500, bytes: nil, variant: nil, duration: .seconds(2))
        #expect(failed.description == "GET /x 500 - B 2000.0 ms")
        let gone = AccessLogEntry(method: "GET", target: "/y", status: 200, bytes: 0, variant: nil, duration: .zero, aborted: true)
        #expect(gone.description == "GET /y 200 0 B 0.0 ms (client went away)")
    }

    @Test("lines are written in batches: none at once, all within the flush interval, in order")
    func batched() async throws {
        let scratch = ScratchFolder("dppx-access-log")
        let path = scratch("access.log")
        let log = try AccessLog(destination: .file(path), flushInterval: .seconds(2))
        // The writer is now waiting out its interval.
        try await Task.sleep(for: .milliseconds(200))
        for index in 0..<1000 {
            log.record(AccessLogEntry(method: "GET", target: "/\(index)", status: 200, bytes: index, variant: nil, duration: .zero))
        }
        #expect(try lines(path).isEmpty, "a line is not written on the answer's own thread")
        var written: [String] = []
        for _ in 0..<50 where written.count < 1000 {
            try await Task.sleep(for: .milliseconds(100))
            written = try lines(path)
        }
        #expect(written.count == 1000)
        #expect(written.map { $0.split(separator: " ")[2] } == (0..<1000).map { Substring("/\($0)") })
        log.close()
    }

    @Test("when the destination cannot keep up and the buffer is full, lines are dropped and counted, in the log and to the server's logger")
    func dropsWhenFull() async throws {
        let scratch = ScratchFolder("dppx-access-log")
        let path = scratch("access.fifo")
        #expect(mkfifo(path, 0o600) == 0)
        // A reader that reads nothing yet: once the pipe's own buffer is full, every write waits.
        let reader = try FileDescriptor.open(FilePath(path), .readOnly, options: [.nonBlocking])
        defer { try? reader.close() }
        let problems = NIOLockedValueBox<[String]>([])
        let log = try AccessLog(destination: .file(path), capacity: 4096, flushInterval: .milliseconds(10),
                                onProblem: { message in problems.withLockedValue { $0.append(message) } })
        for index in 0..<5000 {
            log.record(AccessLogEntry(method: "GET", target: "/\(index)", status: 200, bytes: 1, variant: nil, duration: .zero))
            if index % 100 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        // Now drain the pipe while the log writes what it holds and stops.
        let closed = NIOLockedValueBox(false)
        let closing = Task.detached { log.close(); closed.withLockedValue { $0 = true } }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = (try? buffer.withUnsafeMutableBytes { try reader.read(into: $0) }) ?? 0
            received += buffer[..<count]
            if count == 0 {
                if closed.withLockedValue({ $0 }) { break }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        await closing.value
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        let notes = lines.filter { $0.hasPrefix("dppx: ") }
        let dropped = notes.compactMap { Int($0.split(separator: " ")[1]) }.reduce(0, +)
        #expect(dropped > 0, "5000 lines (225 KB) past a 64 KB pipe and a 4 KB buffer")
        // "1 access-log line dropped", "9 access-log lines dropped": the count and its noun agree.
        #expect(notes.allSatisfy { note in
            let count = Int(note.split(separator: " ")[1]) ?? 0
            return note.hasSuffix("access-log line\(count == 1 ? "" : "s") dropped: the log could not keep up")
        }, "\(notes)")
        #expect(lines.count - notes.count + dropped == 5000, "every line is written or counted, once")
        #expect(problems.withLockedValue { $0 } == notes, "each count also goes to the server's logger")
    }

    @Test("reopen() starts a new file where logrotate moved the old one away")
    func reopens() async throws {
        let scratch = ScratchFolder("dppx-access-log")
        let path = scratch("access.log")
        let log = try AccessLog(destination: .file(path), flushInterval: .milliseconds(50))
        log.record(AccessLogEntry(method: "GET", target: "/before", status: 200, bytes: 1, variant: nil, duration: .zero))
        #expect(try await waitUntil { (try? lines(path))?.isEmpty == false }, "the first line was never written")
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        log.reopen()
        #expect(try await waitUntil { FileManager.default.fileExists(atPath: path) }, "no new file at the log's path")
        log.record(AccessLogEntry(method: "GET", target: "/after", status: 200, bytes: 1, variant: nil, duration: .zero))
        log.close()
        #expect(try lines(path + ".1").map { $0.split(separator: " ")[2] } == ["/before"])
        #expect(try lines(path).map { $0.split(separator: " ")[2] } == ["/after"])
    }

    @Test("a log file that cannot be opened names itself and what to do")
    func unopenable() {
        #expect {
            _ = try AccessLog(destination: .file("/nonexistent-dppx-folder/access.log"))
        } throws: { error in
            "\(error)".contains("/nonexistent-dppx-folder/access.log") && "\(error)".contains("writable")
        }
    }
}
