/// A `[[rule]]` of the project file: what is true of the masters its patterns match. Rules
/// apply in file order and the last rule that matches a master and sets a field wins for that
/// field, so a general rule first and exceptions after read naturally.
///
/// Which keys a rule may hold is declared in `SettingRegistry` (a setting with a `rule:`), and
/// they are its properties: `rule.webpEffort` is `SettingRegistry.webpEffort` as this rule says
/// it, `rule.density` the rule-only `SettingRegistry.Rule.density`. Those declared `.build`
/// are its encoding, which is part of the build's settings fingerprint; the others (`sizes`,
/// `css`, `cover`) change only the stylesheet or the markup and are left out of it.
///
/// The fields are the image's intent: a `density` or a display `width` given here is intent
/// the server may act on (see `SizeIntent`).
@dynamicMemberLookup
public struct ImageRule: Hashable, Sendable, Codable {
    /// Masters matched (any of them).
    public var match: [PathGlob]
    /// What the rule says, by setting.
    private var said = SettingStore()

    public init(match: [PathGlob], density: Density? = nil, width: Int? = nil, widths: WidthRequest? = nil, sizes: String? = nil, formats: [ImageFormat]? = nil,
                jpegQuality: EncoderQuality? = nil, webpQuality: EncoderQuality? = nil, avifQuality: EncoderQuality? = nil, exclude: Bool? = nil) {
        self.match = match
        self.density = density
        self.width = width
        self.widths = widths
        self.sizes = sizes
        self.formats = formats
        self.jpegQuality = jpegQuality
        self.webpQuality = webpQuality
        self.avifQuality = avifQuality
        self.exclude = exclude
    }

    /// The value this rule says of `setting`, nil when it says none. Only settings rules may
    /// hold have one.
    public subscript<Value>(setting: Setting<Value>) -> Value? {
        get { said[setting] }
        set {
            precondition(setting.rule != nil, "\(setting.qualifiedKey) is not declared for rules")
            said[setting] = newValue
        }
    }

    /// `rule.webpEffort`: the value of a setting rules share with a table.
    public subscript<Value>(dynamicMember name: KeyPath<SettingRegistry.Type, Setting<Value>>) -> Value? {
        get { self[SettingRegistry.self[keyPath: name]] }
        set { self[SettingRegistry.self[keyPath: name]] = newValue }
    }

    /// `rule.density`: the value of a setting only rules have.
    public subscript<Value>(dynamicMember name: KeyPath<SettingRegistry.Rule.Type, Setting<Value>>) -> Value? {
        get { self[SettingRegistry.Rule.self[keyPath: name]] }
        set { self[SettingRegistry.Rule.self[keyPath: name]] = newValue }
    }

    /// Whether the rule applies to the master at `path`.
    public func matches(_ path: String) -> Bool { match.contains { $0.matches(path) } }

    /// Takes every value `other` says, over this rule's: the merge of rules that match one master.
    mutating func take(_ other: ImageRule) {
        said = said.overlaid(by: other.said)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: SettingCodingKey.self)
        try container.encode(match, forKey: SettingCodingKey("match"))
        for setting in SettingRegistry.all { try setting.encode(said, &container) }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: SettingCodingKey.self)
        match = try container.decode([PathGlob].self, forKey: SettingCodingKey("match"))
        for setting in SettingRegistry.all { try setting.decode(container, &said) }
    }
}
