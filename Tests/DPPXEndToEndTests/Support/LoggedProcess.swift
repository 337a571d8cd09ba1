import DPPXTestSupport
import Foundation

/// A long-running `dppx` (serve, build --watch) started as a child process, its stdout and
/// stderr in a log file; killed when released, stopped with Ctrl-C's signal by `interrupt()`.
final class LoggedProcess: @unchecked Sendable {
    let process: Process
    private let logFile: String

    /// Starts `dppx` with `arguments` in `directory`.
    init(_ arguments: [String], in directory: String) throws {
        logFile = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-\(UUID().uuidString).log").path
        process = try ExternalProcess.launch(DPPXBinary.path, arguments, in: directory, logFile: logFile)
    }

    /// Everything it printed so far.
    func log() -> String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// Sends SIGINT and waits for the exit status: the stop a user's Ctrl-C gives.
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
}
