/// A problem with one file, and what to do about it: a master that could not be built (the rest
/// of the build goes on), a warning about one that was (a width or format left out), or a page,
/// manifest or stylesheet that could not be read or written.
public struct FileProblem: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file: a master relative to the source folder, or a page's or stylesheet's path.
    public let file: String
    /// What is wrong, and where it helps, what to do.
    public let reason: String

    public init(file: String, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String { "\(file): \(reason)" }
}
