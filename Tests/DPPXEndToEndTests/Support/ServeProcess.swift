import DPPXTestSupport
import Foundation

/// The real `dppx serve` running as a child process on a free port, for browser and CLI tests.
/// The port is read from the startup line it logs ("serving ROOT at http://127.0.0.1:PORT/").
final class ServeProcess: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let logFile: String

    /// Starts `dppx serve` with `arguments` (ROOT and flags; `--port 0` is added) in `directory`.
    init(_ arguments: [String], in directory: String) async throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-serve-\(UUID().uuidString).log").path
        let process = try ExternalProcess.launch(DPPXBinary.path, ["serve"] + arguments + ["--port", "0"], in: directory, logFile: logFile)
        self.process = process
        let logFile = self.logFile
        let found: Int? = try await offPool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && process.isRunning {
                let text = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
                if let range = text.range(of: "at http://127.0.0.1:"),
                   let end = text[range.upperBound...].firstIndex(of: "/") {
                    return Int(text[range.upperBound..<end])
                }
                usleep(50_000)
            }
            return nil
        }
        guard let found else {
            kill(process.processIdentifier, SIGKILL)
            throw Failure(description: "dppx serve did not start: \((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")")
        }
        port = found
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Everything the server printed so far (startup lines and the access log).
    func log() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Sends SIGINT and waits for the exit status: the graceful stop a user's Ctrl-C gives.
    func interrupt() async throws -> Int32 {
        let process = self.process
        kill(process.processIdentifier, SIGINT)
        return try await offPool {
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        try? FileManager.default.removeItem(atPath: logFile)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
