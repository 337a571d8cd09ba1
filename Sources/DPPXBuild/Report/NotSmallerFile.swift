/// An extra-format output (WebP, AVIF) a build did not write because it was not smaller than
/// the file in the master's format it would replace for the same density or width: a browser
/// would fetch more bytes for it, and OUT would grow for nothing.
public struct NotSmallerFile: Codable, Sendable, Hashable {
    /// The file left out, relative to OUT: `hero@2x.webp`.
    public let path: String
    /// Its encoded size.
    public let bytes: Int
    /// The master-format file of the same density or width: `hero@2x.jpg`.
    public let replaces: String
    /// That file's size.
    public let replacedBytes: Int

    public init(path: String, bytes: Int, replaces: String, replacedBytes: Int) {
        self.path = path
        self.bytes = bytes
        self.replaces = replaces
        self.replacedBytes = replacedBytes
    }
}
