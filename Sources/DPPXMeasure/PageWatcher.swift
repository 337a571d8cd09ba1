import NIOConcurrencyHelpers

/// What one tab's events said while its page loaded and was measured: the files it asked
/// for, the JavaScript errors it threw, the navigations refused, the stylesheets its own
/// frame asked for, how many requests it made, and whether its document was parsed
/// and whether it finished loading.
final class PageWatcher: Sendable {
    private struct State {
        var dependencies: Set<String> = []
        var errors: [String] = []
        var refusals: [String] = []
        var requests = 0
        var stylesheets: [(url: String, failure: String?)] = []
        var contentLoaded = false
        var loaded = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// The most stylesheets kept of one page (a page may ask for any number).
    static let maximumStylesheets = 64

    var dependencies: Set<String> { state.withLockedValue { $0.dependencies } }
    var errors: [String] { state.withLockedValue { $0.errors } }
    /// The navigations of the host page or the page's frame that were refused, each as why.
    var refusals: [String] { state.withLockedValue { $0.refusals } }
    /// Requests the page made so far, of every frame of it.
    var requests: Int { state.withLockedValue { $0.requests } }
    /// The stylesheets the page's own frame asked for, in order, each with why it did not load
    /// (nil: it did; `otherOrigin`: not of the site), at most `maximumStylesheets`.
    var stylesheets: [(url: String, failure: String?)] { state.withLockedValue { $0.stylesheets } }
    var isLoaded: Bool { state.withLockedValue { $0.loaded } }

    func depended(on path: String) { state.withLockedValue { _ = $0.dependencies.insert(path) } }

    func requested() { state.withLockedValue { $0.requests += 1 } }

    /// A stylesheet the page's own frame asked for: of the site, as it was answered (nil: of
    /// another origin, which is never answered).
    func stylesheet(_ url: String, answered answer: SiteResponder.Answer?) {
        let failure: String? = switch answer?.status {
        case nil: Self.otherOrigin
        case 200: nil
        case 400: "a path dppx serve refuses"
        default: answer?.dependency.map { !$0.hasSuffix("/") } == true ? "larger than a measured page is answered" : "no such file under the root"
        }
        state.withLockedValue { state in
            guard state.stylesheets.count < Self.maximumStylesheets else { return }
            state.stylesheets.append((url, failure))
        }
    }

    /// Why a stylesheet of another origin did not load.
    static let otherOrigin = "another origin, which measuring does not reach"

    func failed(_ error: String) {
        state.withLockedValue { $0.errors.append(error) }
    }

    func refused(_ navigation: String) {
        state.withLockedValue { $0.refusals.append(navigation) }
    }

    /// The page's own frame has parsed its document (`DOMContentLoaded`).
    func contentLoaded() { wake { $0.contentLoaded = true } }

    func loaded() { wake { $0.loaded = true } }

    private func wake(_ change: (inout State) -> Void) {
        state.withLockedValue { state in
            change(&state)
            state.waiter?.resume()
            state.waiter = nil
        }
    }

    /// Returns once the page has fired `load` (or at once if it has), or when cancelled.
    func waitForLoad() async {
        await wait { $0.loaded }
    }

    /// Returns once the page's frame has parsed its document or the page has fired `load` (or
    /// at once if either is so), or when cancelled.
    func waitForContent() async {
        await wait { $0.loaded || $0.contentLoaded }
    }

    private func wait(until done: @escaping @Sendable (State) -> Bool) async {
        while !Task.isCancelled, !state.withLockedValue({ done($0) }) {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    state.withLockedValue { state in
                        if done(state) || Task.isCancelled { continuation.resume() } else { state.waiter = continuation }
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
}
