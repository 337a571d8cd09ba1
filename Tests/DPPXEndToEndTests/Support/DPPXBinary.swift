import DPPXTestSupport
import Foundation

/// The `dppx` executable under test (`DPPXExecutable`).
enum DPPXBinary {
    static var path: String { DPPXExecutable.path }

    /// Runs `dppx` with `arguments` in `directory`. A build cache that goes to the user's cache
    /// folder (a project that is its own site) goes to `userCacheFolder`, not the home folder.
    static func run(_ arguments: [String], in directory: String, environment: [String: String?] = [:]) async throws -> ExternalProcess.Result {
        try await ExternalProcess.run(path, arguments, in: directory,
                                      environment: ["XDG_CACHE_HOME": userCacheFolder].merging(environment) { _, given in given })
    }

    /// The tests' `XDG_CACHE_HOME`.
    static let userCacheFolder = NSTemporaryDirectory() + "dppx-tests-user-cache"

}
