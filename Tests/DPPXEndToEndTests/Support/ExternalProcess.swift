import DPPXTestSupport
import Foundation

/// Runs a program to completion and captures what it printed: the dppx binary under test,
/// `make`, `vips`. Output goes through files, so a chatty program never blocks on a full pipe.
struct ExternalProcess {
    struct Result: CustomStringConvertible {
        let status: Int32
        let stdout: String
        let stderr: String

        var description: String { "exit \(status)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
    }

    struct Timeout: Error, CustomStringConvertible {
        let command: String
        let seconds: Double
        var description: String { "\(command) did not finish within \(seconds) s and was stopped" }
    }

    /// Runs `executable` with `arguments` in `directory`; `environment` entries are added to
    /// this process's environment (a nil value removes the variable).
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
                    environment: [String: String?] = [:], timeout: Double = 300) async throws -> Result {
        try await offPool { try runBlocking(executable, arguments, in: directory, environment: environment, timeout: timeout) }
    }

    private static func runBlocking(_ executable: String, _ arguments: [String], in directory: String?,
                                    environment: [String: String?], timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: capture, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: capture) }
        let outURL = capture.appendingPathComponent("out"), errURL = capture.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)  // SIGTERM may be ignored, inherited from the runner
            process.waitUntilExit()
            throw Timeout(command: ([executable] + arguments).joined(separator: " "), seconds: timeout)
        }
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }

    /// Starts a long-running program (a server) in the background with stdout and stderr both
    /// appended to `logFile`, which is created; the caller stops it (SIGINT or SIGKILL).
    static func launch(_ executable: String, _ arguments: [String], in directory: String? = nil, logFile: String) throws -> Process {
        _ = FileManager.default.createFile(atPath: logFile, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
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
