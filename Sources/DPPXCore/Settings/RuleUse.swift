/// How a `[[rule]]` holds a setting (`Setting.rule`): whether it changes what a build writes,
/// and then the name it has in a rule's encoding, which is part of the build's settings
/// fingerprint: a rule changing it rebuilds the masters, one changing only the stylesheet or
/// the markup rebuilds nothing.
public struct RuleUse<Value: Hashable & Sendable>: Sendable {
    /// The name in a rule's encoding (`webpEffort`); nil: left out of it (`.render`).
    let buildName: String?
    let encode: (@Sendable (Value, String, inout KeyedEncodingContainer<SettingCodingKey>) throws -> Void)?
    let decode: (@Sendable (String, KeyedDecodingContainer<SettingCodingKey>) throws -> Value?)?

    /// Changes only what `dppx css`, `dppx html` or `dppx rewrite` write (`sizes`, `cover`):
    /// left out of the build's settings fingerprint.
    public static var render: RuleUse { RuleUse(buildName: nil, encode: nil, decode: nil) }
}

extension RuleUse where Value: Codable {
    /// Changes what a build writes: encoded as `name` in the build's settings fingerprint.
    /// Renaming it rebuilds every project whose rules say it.
    public static func build(_ name: String) -> RuleUse {
        RuleUse(buildName: name,
                encode: { value, name, container in try container.encode(value, forKey: SettingCodingKey(name)) },
                decode: { name, container in try container.decodeIfPresent(Value.self, forKey: SettingCodingKey(name)) })
    }
}

/// A key of a rule's encoding, named at run time by `RuleUse.build`.
struct SettingCodingKey: CodingKey, Sendable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
