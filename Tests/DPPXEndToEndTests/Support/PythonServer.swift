import Foundation

/// A python3 HTTP server on 127.0.0.1 and a free port, for browser tests: `python3 -u ARGUMENTS`
/// must print `... port N ...` once listening, as `python3 -m http.server` does. Killed (SIGKILL)
/// when released.
final class PythonServer {
    let port: Int
    private let process: Process

    /// Starts it; throws when python3 is missing or `name` does not come up within 15 s.
    init(_ arguments: [String], name: String) throws {
        guard let python = ExternalProcess.which("python3") else {
            throw Failure(message: "python3 is not on PATH; install python3 to run the browser tests")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        var found: Int?
        while found == nil && Date() < deadline && process.isRunning {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: " port "), let end = text[range.upperBound...].firstIndex(of: " ") {
                found = Int(text[range.upperBound..<end])
            }
        }
        guard let found else {
            kill(process.processIdentifier, SIGKILL)
            throw Failure(message: "\(name) did not start: \(text)")
        }
        port = found
    }

    deinit {
        // SIGKILL, not SIGTERM: the test runner may ignore SIGTERM (a server under test installs
        // its own handling), and children inherit ignored signals.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
