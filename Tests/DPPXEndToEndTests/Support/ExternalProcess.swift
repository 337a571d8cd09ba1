import DPPXTestSupport
import Foundation

/// Runs programs for the end-to-end tests: the dppx binary under test, `make`, `vips`, browsers
/// (to completion, output captured), and servers (in the background, output in a log file).
enum ExternalProcess {
    typealias Result = ChildProcess.Completed

    /// Runs `executable` with `arguments` in `directory`; `environment` entries are added to
    /// this process's environment (a nil value removes the variable).
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                    environment: [String: String?] = [:], timeout: Double = 300) async throws -> Result {
        try await offPool { try ChildProcess.run(executable, arguments, environment: environment, in: directory, timeout: timeout) }
    }

    /// Starts a long-running program (a server) in the background with stdout and stderr both
    /// written to `logFile`, which is created; the caller stops it (SIGINT or SIGKILL), and
    /// releasing it kills it.
    static func launch(_ executable: String, _ arguments: [String], in directory: String? = nil, logFile: String) throws -> ChildProcess {
        try ChildProcess(executable, arguments, in: directory, standardOutput: .file(logFile), standardError: .file(logFile))
    }

    /// The full path of `name` on `PATH`, or nil.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
