import Foundation

extension Builder {
    /// Runs the build on a Dispatch thread: `run` blocks its thread for the whole build, and
    /// a watcher or a server must not hold one of Swift's cooperative threads that long.
    public func runInBackground(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) async -> Result<BuildReport, BuildError> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do throws(BuildError) {
                    continuation.resume(returning: .success(try self.run(onEvent: onEvent)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
    }
}
