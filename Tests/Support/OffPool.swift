import Foundation

/// Runs blocking work (a child process, a socket read, a whole build) on a thread of its own
/// and awaits it. Swift's cooperative pool has one thread per core: a test that blocks one of
/// them starves the server or the other tests it is waiting for, and on a 2-core machine the
/// suite deadlocks.
public func offPool<T>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UnsafeSendable<T>, any Error>) in
        let thread = Thread {
            do { continuation.resume(returning: UnsafeSendable(value: try work())) } catch { continuation.resume(throwing: error) }
        }
        thread.stackSize = 8 << 20
        thread.start()
    }.value
}

/// Carries a result across the thread hop; the value is only used by the awaiting task.
public struct UnsafeSendable<T>: @unchecked Sendable {
    public let value: T
}
