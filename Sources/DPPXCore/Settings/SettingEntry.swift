/// One `key = value` of the project file with where it stands (its table, the file's folder),
/// and the readers that turn it into a typed value or an error naming the line, the key, what
/// is allowed and what was given. Each kind of setting (`SettingValue`) reads with one of them.
public struct SettingEntry: Sendable {
    public let entry: TOMLDocument.Entry
    /// `build`, `css`, ... or `rule`.
    public let table: String
    /// The project file's folder: relative paths are resolved against it (`.` keeps them).
    public let folder: String
    /// Where paths may lead; nil: anywhere (`--allow-outside-project`, or a file read in a test).
    public let confinement: PathConfinement?

    public init(entry: TOMLDocument.Entry, table: String, folder: String, confinement: PathConfinement? = nil) {
        self.entry = entry
        self.table = table
        self.folder = folder
        self.confinement = confinement
    }

    public var key: String { entry.key }
    public var value: TOMLDocument.Value { entry.value }

    /// `build.quality`: the key with its table, as errors name it.
    public var qualifiedKey: String { "\(table).\(entry.key)" }

    /// An error about this entry.
    public func fail(_ problem: String) -> ProjectFileError {
        ProjectFileError(line: entry.line, key: qualifiedKey, problem: problem)
    }

    /// The value as written in the file, for errors: `"high"`, `120`, or its kind.
    public var described: String { Self.describe(entry.value) }

    static func describe(_ value: TOMLDocument.Value) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .integer(let number): String(number)
        case .float(let number): String(number)
        default: value.kind
        }
    }

    func string() throws(ProjectFileError) -> String {
        guard case .string(let text) = value else { throw fail("must be a string in quotes, e.g. \(key) = \"...\"; got \(value.kind)") }
        return text
    }

    /// A file or folder, resolved against the file's folder, inside the project (`confinement`).
    func path() throws(ProjectFileError) -> String {
        let text = try string()
        guard !text.isEmpty else { throw fail("must name a file or folder; got an empty string") }
        let path = resolved(text)
        try confine(path, written: text)
        return path
    }

    /// Throws when `path` (`written` so in the file) leads out of the project folder.
    func confine(_ path: String, written: String) throws(ProjectFileError) {
        guard let confinement, !confinement.contains(path) else { return }
        throw fail("must lead inside the project folder (\(confinement.folder), which holds the project file); got \"\(written)\". Name a path inside it, give this one on the command line, or pass \(PathConfinement.allowFlag) to allow it")
    }

    /// `text` relative to the file's folder, or as it is when absolute.
    func resolved(_ text: String) -> String {
        if text.hasPrefix("/") || folder == "." || folder.isEmpty { return text }
        return (folder.hasSuffix("/") ? folder : folder + "/") + text
    }

    func bool() throws(ProjectFileError) -> Bool {
        guard case .bool(let flag) = value else { throw fail("must be true or false; got \(value.kind)") }
        return flag
    }

    func integer(_ range: ClosedRange<Int>, example: String) throws(ProjectFileError) -> Int {
        guard case .integer(let number) = value else {
            throw fail("must be a whole number, e.g. \(key) = \(example); got \(value.kind)")
        }
        guard range.contains(number) else {
            throw fail("must be \(SettingValue<Int>.allowed(range)), e.g. \(key) = \(example); got \(number)")
        }
        return number
    }

    /// An encoder quality: a whole number from 1 to 100, or "auto".
    func quality(example: String) throws(ProjectFileError) -> EncoderQuality {
        if case .string(let text) = value {
            guard text.lowercased() == "auto" else { throw fail("must be a number from 1 to 100 or \"auto\", e.g. \(key) = \(example) or \(key) = \"auto\"; got \"\(text)\"") }
            return .auto
        }
        guard case .integer = value else {
            throw fail("must be a number from 1 to 100 or \"auto\", e.g. \(key) = \(example) or \(key) = \"auto\"; got \(value.kind)")
        }
        return .fixed(try integer(EncoderQuality.range, example: example))
    }

    /// A SSIMULACRA2 score from 0 to 100 (`quality-target`).
    func score(example: String) throws(ProjectFileError) -> Double {
        let number: Double
        switch value {
        case .integer(let whole): number = Double(whole)
        case .float(let real): number = real
        default: throw fail("must be a score between 0 and 100, e.g. \(key) = \(example); got \(value.kind)")
        }
        guard QualityTargets.range.contains(number) else {
            throw fail("must be a score between 0 and 100, e.g. \(key) = \(example); got \(described)")
        }
        return number
    }

    func density() throws(ProjectFileError) -> Density {
        let density: Density?
        switch value {
        case .integer(let number): density = Density(parsing: String(number))
        case .float(let number): density = Density(parsing: String(number))
        case .string(let text): density = Density(parsing: text)
        default: density = nil
        }
        guard let density else { throw fail("must be a density between 0 and 10, e.g. \(key) = 2 or \"1.5x\"; got \(described)") }
        return density
    }

    func densities() throws(ProjectFileError) -> [Density] {
        let text: String
        switch value {
        case .string(let list): text = list
        case .array(let items):
            var parts: [String] = []
            for item in items {
                switch item {
                case .integer(let number): parts.append(String(number))
                case .float(let number): parts.append(String(number))
                case .string(let number): parts.append(number)
                default: throw fail("must list densities between 0 and 10, e.g. \(key) = [1, 1.5, 2]; got \(item.kind) in the list")
                }
            }
            text = parts.joined(separator: ",")
        default: throw fail("must list densities, e.g. \(key) = [1, 1.5, 2]; got \(value.kind)")
        }
        do { return try Density.parseList(text) } catch { throw fail(error.description) }
    }

    func widths() throws(ProjectFileError) -> WidthRequest {
        let text: String
        switch value {
        case .string(let word): text = word
        case .array(let items):
            var parts: [String] = []
            for item in items {
                guard case .integer(let number) = item else { throw fail("must list widths in pixels, e.g. \(key) = [480, 960, 1440], or be \"auto\"; got \(item.kind) in the list") }
                parts.append(String(number))
            }
            text = parts.joined(separator: ",")
        default: throw fail("must list widths in pixels, e.g. \(key) = [480, 960, 1440], or be \"auto\"; got \(value.kind)")
        }
        do { return try WidthRequest(parsing: text) } catch { throw fail(error.description) }
    }

    func formats() throws(ProjectFileError) -> [ImageFormat] {
        var names: [String] = []
        switch value {
        case .string(let list): names = [list]
        case .array(let items):
            for item in items {
                guard case .string(let name) = item else { throw fail("must list formats in quotes, e.g. formats = [\"webp\", \"avif\"]; got \(item.kind)") }
                names.append(name)
            }
            if names.isEmpty { return [] }
        default: throw fail("must list formats, e.g. formats = [\"webp\", \"avif\"]; got \(value.kind)")
        }
        do { return try ImageFormat.parseList(names.joined(separator: ",")) } catch { throw fail(error.description) }
    }

    /// One pattern in quotes or a list of them.
    func patterns() throws(ProjectFileError) -> [PathGlob] {
        switch value {
        case .string(let pattern): return [PathGlob(pattern)]
        case .array(let items):
            var patterns: [PathGlob] = []
            for item in items {
                guard case .string(let pattern) = item else { throw fail("must be patterns in quotes, e.g. match = [\"photos/**\", \"*.png\"]; got \(item.kind)") }
                patterns.append(PathGlob(pattern))
            }
            return patterns
        default: throw fail("must be a pattern in quotes, e.g. match = \"photos/**\"; got \(value.kind)")
        }
    }

    /// Page paths or patterns, resolved against the file's folder.
    func pagePatterns() throws(ProjectFileError) -> [String] {
        let patterns: [String]
        switch value {
        case .string(let text): patterns = [text]
        case .array(let values):
            patterns = try values.map { item throws(ProjectFileError) -> String in
                guard case .string(let text) = item, !text.isEmpty else { throw fail("must list page patterns in quotes, e.g. pages = [\"site/**/*.html\", \"site/css/*.css\"]; got \(Self.describe(item))") }
                return text
            }
        default: throw fail("must list page patterns in quotes, e.g. pages = [\"site/**/*.html\"]; got \(value.kind)")
        }
        for pattern in patterns {
            try confine(resolved(PathConfinement.literalFolder(of: pattern)), written: pattern)
            if pattern.split(separator: "/").contains("..") {
                throw fail("must not climb with '..' after its start; got \"\(pattern)\". Write the folder first, e.g. pages = [\"site/**/*.html\"]")
            }
        }
        return patterns.map(resolved)
    }

    /// A `sizes` attribute, checked as `dppx html` checks `--sizes`.
    func sizes() throws(ProjectFileError) -> String {
        let sizes = try string()
        if let problem = MarkupSizes.problem(sizes, spelled: { "sizes = \"\($0)\"" }) { throw fail(problem) }
        return sizes
    }

    func classPrefix() throws(ProjectFileError) -> String {
        let prefix = try string()
        if let problem = StylesheetOptions.classPrefixProblem(prefix, spelled: { "prefix = \"\($0)\"" }) { throw fail(problem) }
        return prefix
    }

    func failOn() throws(ProjectFileError) -> FailOn {
        guard let level = FailOn(parsing: try string()) else {
            throw fail("must be \(FailOn.choices), e.g. \(key) = \"error\"; got \(described)")
        }
        return level
    }

    func placeholder() throws(ProjectFileError) -> PlaceholderStyle {
        guard case .string(let text) = value, let style = PlaceholderStyle(rawValue: text) else {
            throw fail("must be \(PlaceholderStyle.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), e.g. \(key) = \"color\"; got \(described)")
        }
        return style
    }

    func cover() throws(ProjectFileError) -> CoverBox {
        guard let box = CoverBox(parsing: try string()) else { throw fail("must be \(CoverBox.expected); got \(described)") }
        return box
    }
}
