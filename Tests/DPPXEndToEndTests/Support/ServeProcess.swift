import DPPXTestSupport
import Foundation

/// The real `dppx serve` running as a child process on a free port, for browser and CLI tests.
/// The port is read from the startup line it logs ("serving ROOT at http://127.0.0.1:PORT/").
final class ServeProcess: @unchecked Sendable {
    let port: Int
    private let child: LoggedProcess

    /// Starts `dppx serve` with `arguments` (ROOT and flags; `--port 0` is added) in `directory`.
    init(_ arguments: [String], in directory: String) async throws {
        let child = try LoggedProcess(["serve"] + arguments + ["--port", "0"], in: directory)
        self.child = child
        let found: Int? = try await offPool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && child.process.isRunning {
                let text = child.log()
                if let range = text.range(of: "at http://127.0.0.1:"),
                   let end = text[range.upperBound...].firstIndex(of: "/") {
                    return Int(text[range.upperBound..<end])
                }
                usleep(50_000)
            }
            return nil
        }
        guard let found else {
            child.process.stop()
            throw Failure(description: "dppx serve did not start: \(child.log())")
        }
        port = found
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// Everything the server printed so far (startup lines and the access log).
    func log() -> String { child.log() }

    /// Sends `signal` (SIGHUP: reopen the access log) without waiting.
    func send(_ signal: Int32) { child.process.signal(signal) }

    /// Sends SIGINT and waits for the exit status: the graceful stop a user's Ctrl-C gives.
    func interrupt() async throws -> Int32 { try await child.interrupt() }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}
