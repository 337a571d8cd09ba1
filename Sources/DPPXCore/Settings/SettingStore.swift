/// The values said of settings, by setting: what `ProjectSettings` and `ImageRule` keep, so
/// neither has a field per setting. Not saying a setting and saying nil are one thing.
struct SettingStore: Hashable, Sendable {
    private var values: [String: Said] = [:]

    /// A value of any setting's type, compared and hashed as itself.
    private struct Said: Hashable, Sendable {
        let value: any Hashable & Sendable

        static func == (lhs: Said, rhs: Said) -> Bool { AnyHashable(lhs.value) == AnyHashable(rhs.value) }
        func hash(into hasher: inout Hasher) { AnyHashable(value).hash(into: &hasher) }
    }

    init() {}

    /// The value said of `setting`, nil when none is.
    subscript<Value>(setting: Setting<Value>) -> Value? {
        get { values[setting.qualifiedKey].map { $0.value as! Value } }
        set { values[setting.qualifiedKey] = newValue.map { Said(value: $0) } }
    }

    /// These values with every one `other` says taken from `other`.
    func overlaid(by other: SettingStore) -> SettingStore {
        SettingStore(values: values.merging(other.values) { _, theirs in theirs })
    }

    private init(values: [String: Said]) { self.values = values }
}
