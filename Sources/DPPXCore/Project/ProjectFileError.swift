/// What is wrong in a project file, and where: the line, the key when there is one, what is
/// allowed. The caller adds the file's path (`dppx.toml:12: ...`).
public struct ProjectFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 1-based.
    public let line: Int
    /// The key as the file spells it, with its table (`build.quality`), when the problem is a key's.
    public let key: String?
    /// What is wrong and what is allowed.
    public let problem: String

    public init(line: Int, key: String?, problem: String) {
        self.line = line
        self.key = key
        self.problem = problem
    }

    /// `line 12: build.quality must be between 1 and 100, e.g. quality = 80; got 101`.
    public var description: String {
        guard let key else { return "line \(line): \(problem)" }
        return problem.hasPrefix(key) ? "line \(line): \(problem)" : "line \(line): \(key) \(problem)"
    }
}
