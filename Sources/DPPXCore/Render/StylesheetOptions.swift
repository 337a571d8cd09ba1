/// How `dppx css` writes its rules.
public struct StylesheetOptions: Hashable, Sendable {
    /// Put before every class name: `img-` gives `.img-hero`.
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

    public init(classPrefix: String = "", box: Bool = true, legacy: Bool = false, stripPath: String = "",
                placeholder: PlaceholderStyle? = nil) {
        self.classPrefix = classPrefix
        self.box = box
        self.legacy = legacy
        self.stripPath = stripPath
        self.placeholder = placeholder
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
