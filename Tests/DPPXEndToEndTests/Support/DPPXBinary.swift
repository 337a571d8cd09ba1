import DPPXTestSupport
import Foundation

/// The `dppx` executable under test (`DPPXExecutable`).
enum DPPXBinary {
    static var path: String { DPPXExecutable.path }

    /// Runs `dppx` with `arguments` in `directory`.
    static func run(_ arguments: [String], in directory: String, environment: [String: String?] = [:]) async throws -> ExternalProcess.Result {
        try await ExternalProcess.run(path, arguments, in: directory, environment: environment)
    }
}
