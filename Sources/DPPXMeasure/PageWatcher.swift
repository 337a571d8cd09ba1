import NIOConcurrencyHelpers

/// What one tab's events said while its page loaded and was measured: the files it asked
/// for, the JavaScript errors it threw, and whether it finished loading.
final class PageWatcher: Sendable {
    private struct State {
        var dependencies: Set<String> = []
        var errors: [String] = []
        var loaded = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    var dependencies: Set<String> { state.withLockedValue { $0.dependencies } }
    var errors: [String] { state.withLockedValue { $0.errors } }

    func depended(on path: String) { state.withLockedValue { _ = $0.dependencies.insert(path) } }

    func failed(_ error: String) {
        state.withLockedValue { $0.errors.append(error) }
    }

    func loaded() {
        state.withLockedValue { state in
            state.loaded = true
            state.waiter?.resume()
            state.waiter = nil
        }
    }

    /// Returns once the page has fired `load` (or at once if it has), or when cancelled.
    func waitForLoad() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLockedValue { state in
                    if state.loaded || Task.isCancelled { continuation.resume() } else { state.waiter = continuation }
                }
            }
        } onCancel: {
            state.withLockedValue { state in
                state.waiter?.resume()
                state.waiter = nil
            }
        }
    }
}
