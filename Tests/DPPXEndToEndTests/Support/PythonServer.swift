import DPPXTestSupport
import Foundation

/// A python3 HTTP server on 127.0.0.1 and a free port, for browser tests: `python3 -u ARGUMENTS`
/// must print `... port N ...` once listening, as `python3 -m http.server` does. Killed (SIGKILL)
/// when released.
final class PythonServer {
    let port: Int
    private let process: ChildProcess

    /// Starts it; throws when python3 is missing or `name` does not come up within 15 s.
    init(_ arguments: [String], name: String) throws {
        guard let python = ExternalProcess.which("python3") else {
            throw Failure(message: "python3 is not on PATH; install python3 to run the browser tests")
        }
        let process = try ChildProcess(python, ["-u"] + arguments, standardOutput: .pipe)
        self.process = process
        // "Serving HTTP on 127.0.0.1 port 41234 (http://127.0.0.1:41234/) ..."
        // Read on a thread of its own, so a server that prints nothing cannot block past the deadline.
        let output = process.standardOutput!
        let announcement = Announcement()
        let reader = Thread {
            var text = ""
            while true {
                let data = output.availableData
                if data.isEmpty { break }
                text += String(decoding: data, as: UTF8.self)
                announcement.text = text
                if let range = text.range(of: " port "), let end = text[range.upperBound...].firstIndex(of: " "),
                   let port = Int(text[range.upperBound..<end]) {
                    announcement.port = port
                    break
                }
            }
        }
        reader.start()
        let deadline = Date().addingTimeInterval(15)
        while announcement.port == nil && Date() < deadline && process.isRunning { usleep(20_000) }
        guard let found = announcement.port else {
            process.stop()
            throw Failure(message: "\(name) did not start within 15 s: \(process.termination.map { "\($0), " } ?? "")printed \(announcement.text)")
        }
        port = found
    }

    deinit {
        process.stop()
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// What the reading thread found so far.
    private final class Announcement: @unchecked Sendable {
        private let lock = NSLock()
        private var _text = "", _port: Int?
        var text: String {
            get { lock.withLock { _text } }
            set { lock.withLock { _text = newValue } }
        }
        var port: Int? {
            get { lock.withLock { _port } }
            set { lock.withLock { _port = newValue } }
        }
    }
}
