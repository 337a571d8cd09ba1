/// Bytes that break their format's structure, and where: a JPEG marker that is not one, a PNG
/// chunk longer than the format allows. Readers stop there rather than guess.
public struct ByteFormatError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The format's name, as people write it: `JPEG`, `PNG`.
    public let format: String
    /// The offset of the byte that breaks the structure.
    public let offset: Int
    /// What is wrong there.
    public let problem: String

    public init(format: String, offset: Int, problem: String) {
        self.format = format
        self.offset = offset
        self.problem = problem
    }

    public var description: String { "not a well-formed \(format) at byte \(offset): \(problem)" }
}
