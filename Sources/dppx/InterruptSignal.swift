import Dispatch
import Foundation

/// Ctrl-C (SIGINT) and SIGTERM for a command that runs until stopped (`dppx build --watch`): the
/// first one is delivered to `wait()`, so the command can stop cleanly (a build in progress
/// finishes, leaving no temporary file); a second one exits at once.
final class InterruptSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var received = false
    private var waiter: CheckedContinuation<Void, Never>?

    init(signals: [Int32] = [SIGINT, SIGTERM]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.receive() }
            source.resume()
            sources.append(source)
        }
    }

    /// Returns once the first signal arrived.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let already = lock.withLock {
                if received { return true }
                waiter = continuation
                return false
            }
            if already { continuation.resume() }
        }
    }

    private func receive() {
        let continuation: CheckedContinuation<Void, Never>? = lock.withLock {
            if received {
                Terminal.error("interrupted during a build; the next build removes its temporary files")
                exit(130)
            }
            received = true
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume()
    }
}
