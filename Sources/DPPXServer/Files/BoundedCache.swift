import NIOConcurrencyHelpers

/// Values worked out once per key and shared by every request, bounded so that endless distinct
/// keys (URLs, file versions) cannot grow the server: past `maxEntries` it is emptied and fills
/// again with what is asked for. `AnswerHeaderCache` and `DensityInsertionCache` keep theirs
/// in one.
final class BoundedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let maxEntries: Int
    private let entries = NIOLockedValueBox([Key: Value]())

    init(maxEntries: Int) {
        self.maxEntries = maxEntries
    }

    /// The value for `key`, if one was stored.
    subscript(key: Key) -> Value? {
        entries.withLockedValue { $0[key] }
    }

    /// Stores `value` for `key`, emptying the cache first when it is full.
    func store(_ value: Value, for key: Key) {
        entries.withLockedValue { entries in
            if entries.count >= maxEntries, entries[key] == nil { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
    }

    /// The value for `key`, made with `make` (outside the lock) the first time.
    func value(for key: Key, make: () -> Value) -> Value {
        if let known = self[key] { return known }
        let made = make()
        store(made, for: key)
        return made
    }

    /// Entries held now.
    var count: Int { entries.withLockedValue { $0.count } }
}
