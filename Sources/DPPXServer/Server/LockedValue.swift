import Foundation

/// A value shared between request handlers and background tasks, guarded by a lock.
///
/// Used for state read on every request (the manifest, build status) where an actor hop per
/// request would cost more than the few instructions the lock protects.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the current value.
    var current: Value { withLock { $0 } }
}
