/// How `dppx css` writes its rules.
public struct StylesheetOptions: Hashable, Sendable {
    /// Put before every class name: `img-` gives `.img-hero`.
    public var classPrefix: String
    /// Write `width` and `height` of the CSS size (`--no-box` turns it off, for elements sized
    /// by their layout).
    public var box: Bool
    /// Add the media-query spellings of very old browsers (`--legacy`).
    public var legacy: Bool

    public init(classPrefix: String = "", box: Bool = true, legacy: Bool = false) {
        self.classPrefix = classPrefix
        self.box = box
        self.legacy = legacy
    }
}
