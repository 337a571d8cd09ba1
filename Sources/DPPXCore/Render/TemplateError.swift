/// A template that cannot be used: the file, the line when known, what is wrong and what to do.
public struct TemplateError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The template file (or folder, when a lookup failed).
    public let file: String
    /// 1-based line and column of the problem, when it is at one place.
    public let line: Int?
    public let column: Int?
    public let problem: String

    public init(file: String, line: Int? = nil, column: Int? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.problem = problem
    }

    /// `Templates/rule.mustache:3:14: ...`, the form editors and terminals link to.
    public var description: String {
        var place = file
        if let line {
            place += ":\(line)"
            if let column { place += ":\(column)" }
        }
        return "\(place): \(problem)"
    }
}
