/// The `sizes` attribute of each fluid image's `<img>`: how wide the page shows it, which the
/// browser needs before layout to pick a `w` candidate.
///
/// In order: the last project-file rule matching the master that sets `sizes`, else the
/// command's (`--sizes`, `[html] sizes`), else `auto, 100vw`. dppx's markup is lazy-loaded, so
/// browsers that know `sizes="auto"` use the width the page lays the image out at; the others
/// read the fallback after it (the whole viewport width: never too small a file).
public struct MarkupSizes: Hashable, Sendable {
    /// The value for fluid images no rule gives one.
    public let fallback: String
    /// The project file's rules, in file order.
    public let rules: [ImageRule]

    /// What fluid images get when nothing says otherwise.
    public static let defaultValue = "auto, 100vw"

    public init(fallback: String? = nil, rules: [ImageRule] = []) {
        self.fallback = fallback ?? Self.defaultValue
        self.rules = rules
    }

    /// The `sizes` value of `image`; nil for an image that is not fluid (its `x` candidates need none).
    public func value(for image: Manifest.Image) -> String? {
        guard image.isFluid else { return nil }
        return PlanSettings(rules: rules).rule(for: image.source).sizes ?? fallback
    }

    /// The `sizes` of `image` shown at once rather than lazily (the preloaded image): `auto`
    /// works only for lazy images, so it is left out and the width after it is used.
    public func eagerValue(for image: Manifest.Image) -> String? {
        guard let value = value(for: image) else { return nil }
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count > 1, String(parts[0]).trimmingCharacters(in: " ") == "auto" else { return value }
        return String(parts.dropFirst().joined(separator: ",").trimmingCharacters(in: " "))
    }

    /// Why `text` cannot be a `sizes` attribute (empty, or with a quote, `<`, `>` or a line
    /// break), or nil when it can; `spelled` shows the setting with a good value.
    public static func problem(_ text: String, spelled: (String) -> String) -> String? {
        guard text.trimmingCharacters(in: " ").isEmpty || text.contains(where: { $0 == "\"" || $0 == "<" || $0 == ">" || $0.isNewline }) else { return nil }
        return "must be a sizes attribute, e.g. \(spelled("(min-width: 768px) 50vw, 100vw")); got \"\(text)\""
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> Substring {
        var text = Substring(self)
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return text
    }
}
