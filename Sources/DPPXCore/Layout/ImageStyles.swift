/// The computed style of each `<img>` of a measured page, and of the element holding it, at each
/// checked viewport: what checking a `<picture>` wrapper compares besides the boxes.
///
/// The holder is the `<img>`'s parent, or its `<picture>`'s parent when it is in one: the same
/// element on the page as it was and as written with a new wrapper. Styles are computed values
/// (`width: 100%`, `auto`; not the 400 px laid out), so a selector that stops matching shows
/// however the boxes come out, and an image's natural width (its `sizes`) changes none. Each
/// style is kept as a hash of every property's value, and each hash seen as the hash of each
/// property's value by name, which names the properties two styles differ in.
public struct ImageStyles: Hashable, Sendable {
    /// One `<img>` at one viewport: the hashes of its computed style and of its holder's.
    public struct Sample: Hashable, Sendable {
        public var viewport: Double
        public var image: String
        public var holder: String

        public init(viewport: Double, image: String, holder: String) {
            self.viewport = viewport
            self.image = image
            self.holder = holder
        }
    }

    /// By the byte offset of the `<img>` tag, in viewport order.
    public var samples: [Int: [Sample]]
    /// Each style hash of `samples`: the hash of each property's computed value, by name.
    public var properties: [String: [String: UInt32]]
    /// By the byte offset of the `<img>` tag: a selector of the page's own scripts that matches
    /// it and names its place among its parent's children (`.card > img`), with the script's
    /// file (`ScriptSelectors`). A script selecting it so stops finding it in a `<picture>`.
    public var namedByScripts: [Int: String]
    /// By the byte offset of the `<img>` tag: the style rules whose selectors depend on an
    /// element's place among its parent's children that matched it or its holder at some
    /// viewport: what names the selector behind a change.
    public var rules: [Int: [Rule]]

    /// A style rule that matched an `<img>` or its holder.
    public struct Rule: Hashable, Sendable {
        /// Whether it matched the holder (else the `<img>`).
        public var holder: Bool
        /// Its selector, as the browser serializes it (`.card > img`).
        public var selector: String
        /// The properties it sets (longhands).
        public var properties: Set<String>

        public init(holder: Bool, selector: String, properties: Set<String>) {
            self.holder = holder
            self.selector = selector
            self.properties = properties
        }
    }

    public init(samples: [Int: [Sample]] = [:], properties: [String: [String: UInt32]] = [:], namedByScripts: [Int: String] = [:],
                rules: [Int: [Rule]] = [:]) {
        self.samples = samples
        self.properties = properties
        self.namedByScripts = namedByScripts
        self.rules = rules
    }

    /// The rules of each `<img>` in source order, as `inOrder`.
    var rulesInOrder: [[Rule]] { samples.keys.sorted().map { rules[$0] ?? [] } }

    /// The samples of each `<img>` in source order: the n-th is the page's n-th `<img>`, as in
    /// `LayoutFile.Page.images` (a rewrite adds no `<img>`).
    public var inOrder: [[Sample]] { samples.keys.sorted().map { samples[$0]! } }
}
