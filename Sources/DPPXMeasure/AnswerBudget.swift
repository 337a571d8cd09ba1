import NIOConcurrencyHelpers

/// How many bytes of answers a measured page's requests may hold at once, over every tab: a
/// request is answered once its file's size fits in what is left (one larger than the whole
/// budget waits until nothing else is in flight), and gives it back once the browser has the
/// answer. With `SiteResponder.largestFile`, it bounds what measuring holds however many
/// requests a page makes (a page asking for one large file a thousand times at once held each
/// copy, then its base64 text, side by side).
final class AnswerBudget: Sendable {
    /// Measuring's: 64 MiB of bodies in flight.
    static let shared = AnswerBudget(bytes: 64 << 20)

    private struct State {
        var available: Int
        var inFlight = 0
        var waiting: [(bytes: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }
    private let state: NIOLockedValueBox<State>

    init(bytes: Int) {
        state = NIOLockedValueBox(State(available: bytes))
    }

    /// Returns once `bytes` are available, and takes them; first come, first served.
    func take(_ bytes: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLockedValue { state -> Bool in
                guard state.waiting.isEmpty, Self.fits(bytes, in: state) else {
                    state.waiting.append((bytes, continuation))
                    return false
                }
                state.available -= bytes
                state.inFlight += 1
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    /// Gives back what `take` took, and lets waiting requests on that now fit.
    func give(_ bytes: Int) {
        let resumed = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            state.available += bytes
            state.inFlight -= 1
            var resumed: [CheckedContinuation<Void, Never>] = []
            while let first = state.waiting.first, Self.fits(first.bytes, in: state) {
                state.waiting.removeFirst()
                state.available -= first.bytes
                state.inFlight += 1
                resumed.append(first.continuation)
            }
            return resumed
        }
        for continuation in resumed { continuation.resume() }
    }

    /// What is left holds `bytes`, or nothing is in flight (a body larger than the budget).
    private static func fits(_ bytes: Int, in state: State) -> Bool {
        bytes <= state.available || state.inFlight == 0
    }
}
