import Foundation

/// A plain static file server for browser tests (`python3 -m http.server` on 127.0.0.1 and a
/// free port), so what the browser fetches is decided by the page alone.
final class StaticServer {
    let root: String
    let port: Int
    private let process: Process

    /// Serves `root`; throws when python3 is missing or the server does not come up.
    init(root: String) throws {
        guard let python = ExternalProcess.which("python3") else {
            throw ServerFailure(message: "python3 is not on PATH; install python3 to run the browser tests")
        }
        self.root = root
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", root]
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
            throw ServerFailure(message: "python3 -m http.server did not start: \(text)")
        }
        port = found
    }

    /// `http://127.0.0.1:PORT/path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    deinit {
        // SIGKILL, not SIGTERM: the test runner may ignore SIGTERM (a server under test installs
        // its own handling), and children inherit ignored signals.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    struct ServerFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
