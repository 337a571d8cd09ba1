import DPPXTestSupport
import Foundation

/// A long-running `dppx` (serve, build --watch) started as a child process, its stdout and
/// stderr in a log file; killed when released, stopped with Ctrl-C's signal by `interrupt()`.
final class LoggedProcess: @unchecked Sendable {
    let process: ChildProcess
    private let logFile: String

    /// Starts `dppx` with `arguments` in `directory`.
    init(_ arguments: [String], in directory: String) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-\(UUID().uuidString).log").path
        process = try ExternalProcess.launch(DPPXBinary.path, arguments, in: directory, logFile: logFile)
    }

    /// Everything it printed so far.
    func log() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Sends SIGINT and waits up to 30 s for the exit status (SIGKILL after): the stop a user's
    /// Ctrl-C gives.
    func interrupt() async throws -> Int32 {
        let process = self.process
        return try await offPool { process.stop(SIGINT, grace: 30).status }
    }

    deinit {
        process.stop()
        try? FileManager.default.removeItem(atPath: logFile)
    }
}
