import DPPXTestSupport
import Foundation
import Testing

/// `dppx serve --access-log FILE` as production runs it: lines in the file, a new file after
/// logrotate's move and SIGHUP, and nothing of the log on standard output.
@Suite("dppx serve --access-log (end to end)")
struct ServeAccessLogCommandTests {
    private func get(_ server: ServeProcess, _ path: String) async throws -> Int {
        let port = server.port
        return try await offPool { try RawHTTPConnection.get(port: port, path: path, headers: [:]).status }
    }

    /// The request paths of a log file's lines (the third field, after the time and method).
    private func paths(_ file: String) -> [String] {
        ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map { String($0.split(separator: " ")[2]) }
    }

    /// Waits for the log writer's next batches (it writes every 100 ms).
    private func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<100 where !condition() { try await Task.sleep(for: .milliseconds(50)) }
    }

    @Test("lines go to FILE; after the file is moved away, SIGHUP starts a new one")
    func reopenedOnSIGHUP() async throws {
        let scratch = ScratchFolder("dppx-access-log")
        try TestImages.writeBytes(Array("<p>hi</p>".utf8), to: scratch("site/index.html"))
        try FileManager.default.createDirectory(atPath: scratch("logs"), withIntermediateDirectories: true)
        let server = try await ServeProcess(["site", "--access-log", "logs/access.log"], in: scratch.path)
        #expect(try await get(server, "/index.html") == 200)
        try await eventually { paths(scratch("logs/access.log")) == ["/index.html"] }
        #expect(paths(scratch("logs/access.log")) == ["/index.html"])

        try FileManager.default.moveItem(atPath: scratch("logs/access.log"), toPath: scratch("logs/access.log.1"))
        server.send(SIGHUP)
        try await eventually { FileManager.default.fileExists(atPath: scratch("logs/access.log")) }
        #expect(try await get(server, "/missing") == 404)
        try await eventually { paths(scratch("logs/access.log")) == ["/missing"] }
        #expect(try await server.interrupt() == 0)
        #expect(paths(scratch("logs/access.log.1")) == ["/index.html"])
        #expect(paths(scratch("logs/access.log")) == ["/missing"])
        #expect(!server.log().contains("GET /"), "the log is not on standard output: \(server.log())")
    }

    @Test("a log file that cannot be opened stops the server with the file named")
    func unopenable() async throws {
        let scratch = ScratchFolder("dppx-access-log")
        try TestImages.writeBytes(Array("<p>hi</p>".utf8), to: scratch("site/index.html"))
        let result = try await DPPXBinary.run(["serve", "site", "--access-log", "no/such/folder/access.log", "--port", "0"], in: scratch.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no/such/folder/access.log") && result.stderr.contains("writable"), "\(result)")
    }
}
