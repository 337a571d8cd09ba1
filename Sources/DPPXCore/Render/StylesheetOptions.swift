/// How `dppx css` writes its rules.
public struct StylesheetOptions: Hashable, Sendable {
    /// Put before every class name: `img-` gives `.img-hero`; empty for bare names (`.hero`).
    public var classPrefix: String
    /// Write `width` and `height` of the CSS size (`--no-box` turns it off, for elements sized
    /// by their layout).
    public var box: Bool
    /// Add the media-query spellings of very old browsers (`--legacy`).
    public var legacy: Bool
    /// A leading part of image paths left out of class names: `assets/img/` names
    /// `assets/img/hero.jpg` `.hero` (with `classPrefix`, the prefix is replaced).
    public var stripPath: String
    /// Paint each image's placeholder beneath its variant backgrounds (`--placeholder`).
    public var placeholder: PlaceholderStyle?

    /// The images that get rules (`[css] match`); nil for every image.
    public var match: [PathGlob]?
    /// The project file's rules: `css = false` leaves an image out (`css = true` puts it back
    /// in past `match`), `cover` gives a fluid background's box.
    public var rules: [ImageRule]

    /// What class names start with when nothing says otherwise: pages already use classes
    /// such as `.logo`, and no hand-written class is likely to start `img-` and then name a file.
    public static let defaultClassPrefix = "img-"

    public init(classPrefix: String = StylesheetOptions.defaultClassPrefix, box: Bool = true, legacy: Bool = false, stripPath: String = "",
                match: [PathGlob]? = nil, rules: [ImageRule] = [], placeholder: PlaceholderStyle? = nil) {
        self.classPrefix = classPrefix
        self.box = box
        self.legacy = legacy
        self.stripPath = stripPath
        self.placeholder = placeholder
        self.match = match
        self.rules = rules
    }

    /// Whether the image of master `source` gets rules: the last matching rule's `css`, else
    /// whether `match` selects it (every image without `match`).
    public func includes(_ source: String) -> Bool {
        if let css = PlanSettings(rules: rules).rule(for: source).css { return css }
        return match?.contains { $0.matches(source) } ?? true
    }

    /// The box the fluid background of master `source` covers (its last matching rule's `cover`),
    /// or nil for one as wide as the viewport and no taller than the file's aspect.
    public func cover(for source: String) -> CoverBox? {
        PlanSettings(rules: rules).rule(for: source).cover
    }

    /// These options with every image included, for a stylesheet of images named one by one.
    public var includingEveryImage: StylesheetOptions {
        var options = self
        options.match = nil
        options.rules = rules.map { rule in
            var rule = rule
            rule.css = nil
            return rule
        }
        return options
    }
}

extension StylesheetOptions {
    /// Why `prefix` cannot go before class names (a dot, whitespace), or nil when it can;
    /// `spelled` writes a suggested prefix the way the user gives it (`--prefix img-`).
    public static func classPrefixProblem(_ prefix: String, spelled: (String) -> String) -> String? {
        if prefix.hasPrefix(".") {
            let bare = String(prefix.dropFirst())
            return "goes before the class name, without the dot: \(spelled(bare)) gives .\(bare)hero"
        }
        if prefix.contains(where: \.isWhitespace) {
            return "cannot hold spaces (a class attribute splits on them); got '\(prefix)', try \(spelled(prefix.filter { !$0.isWhitespace }))"
        }
        return nil
    }
}
