/// Whether a rewritten page gives its `<img>` elements and their holders the computed styles the
/// untouched page gave them (`ImageStyles`): a `<picture>` wrapper that makes `.card > img` stop
/// matching changes the image's `width` from `100%` to `auto`, one that makes `img:first-child`
/// stop matching its `border-radius`, whether or not a box moves.
public enum StyleComparison {
    /// Which element's style changed.
    public enum Element: Hashable, Sendable {
        /// The `<img>`.
        case image
        /// The element holding it (its parent, or its `<picture>`'s).
        case holder
    }

    /// A property of one of the two elements.
    public struct Property: Hashable, Sendable, Comparable {
        public var element: Element
        public var name: String

        public init(_ element: Element, _ name: String) {
            self.element = element
            self.name = name
        }

        public static func < (a: Property, b: Property) -> Bool {
            (a.element == .image ? 0 : 1, a.name) < (b.element == .image ? 0 : 1, b.name)
        }
    }

    /// A rule behind a change: its selector, and whether it matched on the untouched page (and
    /// no longer does) or matches only on the rewritten one.
    public struct Culprit: Hashable, Sendable {
        public var selector: String
        public var matchedBefore: Bool

        public init(selector: String, matchedBefore: Bool) {
            self.selector = selector
            self.matchedBefore = matchedBefore
        }
    }

    /// How an image's style changed: the properties that differ, at the first viewport where
    /// one does.
    public struct Change: Hashable, Sendable, CustomStringConvertible {
        public var properties: [Property]
        public var viewport: Double
        /// A rule setting one of them that matched on one page and not on the other.
        public var rule: Culprit?

        public init(properties: [Property], viewport: Double, rule: Culprit? = nil) {
            self.properties = properties
            self.viewport = viewport
            self.rule = rule
        }

        /// The most properties a description names.
        static let named = 4

        /// `its computed width and object-fit changed at a 320 px viewport`, `its parent's
        /// computed display changed ...`.
        public var description: String {
            var parts: [String] = []
            for element in [Element.image, .holder] {
                let names = properties.filter { $0.element == element }.map(\.name)
                guard !names.isEmpty else { continue }
                let shown = names.prefix(Self.named).map { $0 == "*" ? "style" : "`\($0)`" }
                let list = shown.count == 1 ? shown[0] : shown.dropLast().joined(separator: ", ") + " and " + shown.last!
                let more = names.count > Self.named ? " (and \(names.count - Self.named) more)" : ""
                parts.append("\(element == .image ? "its" : "its parent's") computed \(list)\(more)")
            }
            let why = rule.map { " (`\($0.selector)` \($0.matchedBefore ? "no longer matches" : "matches it now"))" } ?? ""
            return parts.joined(separator: " and ") + " changed at a \(SizesLength.number(viewport)) px viewport" + why
        }
    }

    /// The images whose style or holder's style differs between `before` and `after`, by index
    /// in source order, with the first change of each; what `setAside` names for an index (the
    /// untouched page's own changes, `jitter`) is not a difference.
    public static func changes(before: ImageStyles, after: ImageStyles, setAside: [Int: Set<Property>] = [:]) -> [Int: Change] {
        var result: [Int: Change] = [:]
        let rulesBefore = before.rulesInOrder, rulesAfter = after.rulesInOrder
        for (index, (old, new)) in zip(before.inOrder, after.inOrder).enumerated() {
            let newSamples = Dictionary(new.map { ($0.viewport, $0) }, uniquingKeysWith: { a, _ in a })
            for sample in old {
                guard let now = newSamples[sample.viewport] else { continue }
                let differing = (differences(.image, sample.image, before, now.image, after)
                    + differences(.holder, sample.holder, before, now.holder, after))
                    .filter { !(setAside[index]?.contains($0) ?? false) }
                if !differing.isEmpty {
                    let rule = index < rulesBefore.count && index < rulesAfter.count
                        ? culprit(of: differing, before: rulesBefore[index], after: rulesAfter[index]) : nil
                    result[index] = Change(properties: differing.sorted(), viewport: sample.viewport, rule: rule)
                    break
                }
            }
        }
        return result
    }

    /// The first rule setting one of `properties` on its element that matched before and not
    /// after (else after and not before).
    static func culprit(of properties: [Property], before: [ImageStyles.Rule], after: [ImageStyles.Rule]) -> Culprit? {
        func sets(_ rule: ImageStyles.Rule) -> Bool {
            properties.contains { ($0.element == .holder) == rule.holder && ($0.name == "*" || rule.properties.contains($0.name)) }
        }
        func key(_ rule: ImageStyles.Rule) -> String { (rule.holder ? "1 " : "0 ") + rule.selector }
        let beforeKeys = Set(before.map(key)), afterKeys = Set(after.map(key))
        if let stopped = before.first(where: { !afterKeys.contains(key($0)) && sets($0) }) { return Culprit(selector: stopped.selector, matchedBefore: true) }
        if let started = after.first(where: { !beforeKeys.contains(key($0)) && sets($0) }) { return Culprit(selector: started.selector, matchedBefore: false) }
        return nil
    }

    /// The properties two loads of one untouched page measured the same way disagree on, by
    /// image index: the page's own changes (an animation, a class a script sets at a moment
    /// that varies), which are no reason to say a rewrite changed a style.
    public static func jitter(between first: ImageStyles, and second: ImageStyles) -> [Int: Set<Property>] {
        var result: [Int: Set<Property>] = [:]
        for (index, (old, new)) in zip(first.inOrder, second.inOrder).enumerated() {
            let newSamples = Dictionary(new.map { ($0.viewport, $0) }, uniquingKeysWith: { a, _ in a })
            for sample in old {
                guard let now = newSamples[sample.viewport] else { continue }
                let differing = differences(.image, sample.image, first, now.image, second)
                    + differences(.holder, sample.holder, first, now.holder, second)
                if !differing.isEmpty { result[index, default: []].formUnion(differing) }
            }
        }
        return result
    }

    /// The properties of `element` whose values differ between style `old` of `before` and
    /// `new` of `after`, by name; a hash with no properties recorded differs as a whole (`*`).
    private static func differences(_ element: Element, _ old: String, _ before: ImageStyles,
                                    _ new: String, _ after: ImageStyles) -> [Property] {
        guard old != new else { return [] }
        guard let oldValues = before.properties[old], let newValues = after.properties[new] else { return [Property(element, "*")] }
        let names = Set(oldValues.keys).union(newValues.keys).filter { oldValues[$0] != newValues[$0] }
        return names.isEmpty ? [Property(element, "*")] : names.sorted().map { Property(element, $0) }
    }
}
