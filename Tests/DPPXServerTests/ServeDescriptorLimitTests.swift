@testable import DPPXServer
import DPPXTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `dppx serve` as a separate process under a small descriptor limit (`prlimit`), so running out
/// of descriptors cannot touch the test process: more connections than descriptors must never
/// crash it, and every request must be answered as other connections close. `bench/soak` runs it
/// at the usual default, 1100 connections against a limit of 1024 (`DPPX_SOAK_DESCRIPTORS`).
@Suite("dppx serve with few file descriptors")
struct ServeDescriptorLimitTests {
    static let limit = Int(ProcessInfo.processInfo.environment["DPPX_SOAK_DESCRIPTORS"] ?? "") ?? 64
    /// As in the report that found the crash: 1100 connections against the usual 1024.
    static let connections = limit + 76

    @Test("more connections than descriptors at once: no crash, every request answered as others close")
    func fewDescriptors() async throws {
        try await ExclusiveTests.shared.run { try await Self.fewDescriptorsExclusive() }
    }

    static func fewDescriptorsExclusive() async throws {
        let fixture = try ServerFixture()
        // The clients need a descriptor each too.
        DescriptorLimit.raiseToHard()
        let server = try ServeProcess(arguments: [fixture.root, "--host", "127.0.0.1", "--port", "0"], descriptorLimit: limit)
        do {
            try await connectBeyondTheLimit(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    static func connectBeyondTheLimit(_ server: ServeProcess) async throws {
        let port = try await offPool { try server.waitForPort() }
        let answered = try await offPool { () -> [Int] in
            let connections = try (0..<Self.connections).map { _ in try RawHTTPConnection(port: port, timeout: .seconds(20)) }
            usleep(500_000)
            for connection in connections {
                try connection.sendBlocking("GET /digits.txt HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            }
            return connections.map { (try? $0.readResponseBlocking().status) ?? 0 }
        }
        #expect(server.isRunning, "the server died (\(server.termination.map { "\($0)" } ?? "running")): \(server.errorOutput)")
        #expect(answered.filter { $0 == 200 }.count == Self.connections, "statuses: \(answered)")
        #expect(try await RawHTTPConnection(port: port).request("/digits.txt").status == 200)
    }
}

/// A `dppx serve` child process (`DPPXExecutable`), its stderr collected as it prints.
final class ServeProcess: @unchecked Sendable {
    private let process: ChildProcess
    private let collected = LockedText()

    /// `descriptorLimit`: run under `prlimit --nofile=N:N`.
    init(arguments: [String], descriptorLimit: Int? = nil) throws {
        let binary = DPPXExecutable.path
        if let descriptorLimit {
            process = try ChildProcess("/usr/bin/prlimit", ["--nofile=\(descriptorLimit):\(descriptorLimit)", binary, "serve"] + arguments,
                                       standardError: .pipe)
        } else {
            process = try ChildProcess(binary, ["serve"] + arguments, standardError: .pipe)
        }
        // Read until the end, which comes when the server exits: a full pipe would stop it.
        let errors = process.standardError!, collected = self.collected
        Thread {
            while true {
                let data = errors.availableData
                if data.isEmpty { break }
                collected.append(String(decoding: data, as: UTF8.self))
            }
        }.start()
    }

    /// The port from the startup line (`serving ROOT at http://127.0.0.1:PORT/`). Blocks.
    func waitForPort(timeout: TimeInterval = 20) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let text = collected.text
            if let range = text.range(of: #"http://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                let match = text[range].dropFirst("http://127.0.0.1:".count).dropLast()
                if let port = Int(match) { return port }
            }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        throw RawHTTPConnection.Failure(description: "dppx serve did not start: \(collected.text)")
    }

    var isRunning: Bool { process.isRunning }
    /// How it ended, once it has (exit status or signal).
    var termination: ChildProcess.Termination? { process.termination }
    var errorOutput: String { collected.text }

    /// SIGTERM, the graceful stop; SIGKILL if it has not ended within 30 s.
    func stop() async {
        let process = self.process
        _ = try? await offPool { process.stop(SIGTERM, grace: 30) }
    }

    private final class LockedText: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        func append(_ more: String) { lock.lock(); value += more; lock.unlock() }
        var text: String { lock.lock(); defer { lock.unlock() }; return value }
    }
}
