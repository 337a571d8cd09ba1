/// Names the class selector of each image from its path: `hero.jpg` -> `.hero`,
/// `icons/logo@3x.png` -> `.icons-logo`.
///
/// The name is the master's path without extension and `@Nx` suffix, folders joined with `-`,
/// behind an optional prefix. Whitespace becomes `-` (a class attribute cannot hold it); any
/// other character a CSS identifier cannot hold is escaped, so the selector matches a
/// `class` attribute holding the unescaped name. Two images that would share a selector are an
/// error naming both: one rule silently overriding another is worse than a build failure.
public struct SelectorNamer: Sendable {
    /// Put before every class name, e.g. `img-` for `.img-hero`.
    public let prefix: String
    /// Left out of the start of paths (`assets/img/`), when they start with it.
    public let strip: String

    public init(prefix: String = "", strip: String = "") {
        self.prefix = prefix
        var strip = strip
        while strip.hasPrefix("/") { strip.removeFirst() }
        if !strip.isEmpty && !strip.hasSuffix("/") { strip += "/" }
        self.strip = strip
    }

    /// The unescaped class name, as written in a `class` attribute: `icons-logo`.
    public func className(forSource path: String) -> String {
        let source = !strip.isEmpty && path.hasPrefix(strip) ? String(path.dropFirst(strip.count)) : path
        let name = MasterName(relativePath: source)
        let withoutExtension: String
        if let name {
            withoutExtension = name.directory.isEmpty ? name.stem : "\(name.directory)/\(name.stem)"
        } else if let dot = source.lastIndex(of: "."), dot != source.startIndex {
            withoutExtension = String(source[..<dot])
        } else {
            withoutExtension = source
        }
        let joined = withoutExtension.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "-")
        let spaced = String(joined.map { $0.isWhitespace ? "-" : $0 })
        return prefix + spaced
    }

    /// The selector for a class name: `.` and the escaped identifier.
    public func selector(forSource source: String) -> String {
        "." + CSSIdentifier.escape(className(forSource: source))
    }

    /// The selector of every image, keyed by source path; throws on the first two images that
    /// would share one.
    public func selectors(for images: [Manifest.Image]) throws(RenderError) -> [String: String] {
        var bySelector: [String: String] = [:]
        var result: [String: String] = [:]
        for image in images {
            let selector = selector(forSource: image.source)
            if let other = bySelector[selector] {
                throw .selectorCollision(selector: selector, first: other, second: image.source)
            }
            bySelector[selector] = image.source
            result[image.source] = selector
        }
        return result
    }
}
