import NIOConcurrencyHelpers

/// What one tab's events said while its page loaded and was measured: the files it asked
/// for, the JavaScript errors it threw, the navigations refused, and whether it finished loading.
final class PageWatcher: Sendable {
    private struct State {
        var dependencies: Set<String> = []
        var errors: [String] = []
        var refusals: [String] = []
        var loaded = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    var dependencies: Set<String> { state.withLockedValue { $0.dependencies } }
    var errors: [String] { state.withLockedValue { $0.errors } }
    /// The navigations of the host page or the page's frame that were refused, each as why.
    var refusals: [String] { state.withLockedValue { $0.refusals } }

    func depended(on path: String) { state.withLockedValue { _ = $0.dependencies.insert(path) } }

    func failed(_ error: String) {
        state.withLockedValue { $0.errors.append(error) }
    }

    func refused(_ navigation: String) {
        state.withLockedValue { $0.refusals.append(navigation) }
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
