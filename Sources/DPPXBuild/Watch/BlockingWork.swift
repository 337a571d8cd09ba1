import Foundation

/// Runs blocking work (a build, a walk of SRC) on a Dispatch thread and awaits its result:
/// Swift's cooperative pool has as many threads as cores, and a watcher or a server must not
/// hold one of them for the length of a build.
func onDispatchThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}
