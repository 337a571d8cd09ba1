/// Lets timing-sensitive tests (latency under slow clients, the 256-connection load) run one at
/// a time: Swift Testing runs suites in parallel, and on a 2-core machine one such test's load
/// would show up as another's latency.
actor ExclusiveTests {
    static let shared = ExclusiveTests()

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` when no other exclusive test is running.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        return try await body()
    }
}
