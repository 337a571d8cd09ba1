/// What a setting takes: how its project-file value is read, and for numbers the bounds a
/// flag's value is checked against (`outOfBounds`), with the example errors suggest.
public struct SettingValue<Value: Sendable>: Sendable {
    /// Reads the value of a project-file entry, or says what is wrong with it.
    let read: @Sendable (SettingEntry) throws(ProjectFileError) -> Value
    /// For a value given on the command line: what is allowed and the value as shown, when it
    /// is out of bounds; nil when it is fine (or has no bounds).
    let bounds: @Sendable (Value) -> (allowed: String, shown: String)?
    /// A good value, for errors: `80`.
    let example: String
    /// False for a setting the project file may not say (`commandLineOnly`): its key is not
    /// listed among a table's known keys, and `read` refuses it.
    let isReadFromFile: Bool

    init(example: String = "...", isReadFromFile: Bool = true,
         bounds: @escaping @Sendable (Value) -> (allowed: String, shown: String)? = { _ in nil },
         read: @escaping @Sendable (SettingEntry) throws(ProjectFileError) -> Value) {
        self.read = read
        self.bounds = bounds
        self.example = example
        self.isReadFromFile = isReadFromFile
    }

    /// `between 1 and 100`, or `a positive number` for a range without an upper bound.
    static func allowed(_ range: ClosedRange<Int>) -> String {
        range.upperBound == Int.max ? "a positive number" : "between \(range.lowerBound) and \(range.upperBound)"
    }
}

extension SettingValue where Value == Int {
    /// A whole number in `range`.
    static func integer(_ range: ClosedRange<Int>, example: Int) -> SettingValue {
        SettingValue(example: String(example),
                     bounds: { range.contains($0) ? nil : (allowed(range), String($0)) },
                     read: { entry throws(ProjectFileError) in try entry.integer(range, example: String(example)) })
    }

    /// A limit that protects the user from what a repository holds (a decompression bomb, a
    /// connection held open): a whole number in `range` on the command line, but the project
    /// file, which comes with the repository, may only lower it: at most `fileMaximum` (the
    /// default). The file's larger value is an error that says to give it as the key's flag
    /// (one key, one flag: `max-pixels` is `--max-pixels`).
    static func limit(_ range: ClosedRange<Int>, example: Int, fileMaximum: Int) -> SettingValue {
        SettingValue(example: String(example),
                     bounds: { range.contains($0) ? nil : (allowed(range), String($0)) },
                     read: { entry throws(ProjectFileError) in
                         let number = try entry.integer(range, example: String(example))
                         guard number <= fileMaximum else {
                             throw entry.fail("is a limit that protects you from a repository's files, which the project file may lower but not raise: at most \(fileMaximum) (the default) there; got \(number). To allow more for one run, pass --\(entry.key) \(number) on the command line, and remove the key")
                         }
                         return number
                     })
    }
}

extension SettingValue where Value == EncoderQuality {
    /// An encoder quality: 1 to 100, or `auto`.
    static func quality(example: Int) -> SettingValue {
        SettingValue(example: String(example),
                     bounds: { quality in
                         guard let number = quality.fixedValue, !EncoderQuality.range.contains(number) else { return nil }
                         return ("\(allowed(EncoderQuality.range)), or auto", String(number))
                     },
                     read: { entry throws(ProjectFileError) in try entry.quality(example: String(example)) })
    }
}

extension SettingValue where Value == Double {
    /// A SSIMULACRA2 score, 0 to 100.
    static func score(example: Int) -> SettingValue {
        SettingValue(example: String(example),
                     bounds: { score in
                         guard !QualityTargets.range.contains(score) else { return nil }
                         let shown = score == score.rounded() && abs(score) < 1e15 ? String(Int(score)) : String(score)
                         return ("a score between 0 and 100", shown)
                     },
                     read: { entry throws(ProjectFileError) in try entry.score(example: String(example)) })
    }
}

extension SettingValue where Value == String {
    static var string: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.string() } }
    /// Said on the command line or in the environment only (`instead` says how): a project
    /// file that says it is an error naming the key, as the file comes with a repository and the
    /// setting is not the repository's to choose (which program dppx runs).
    static func commandLineOnly(instead: String) -> SettingValue {
        SettingValue(isReadFromFile: false) { entry throws(ProjectFileError) in
            throw entry.fail("is not read from the project file: a repository's file must not choose which program dppx runs. \(instead), and remove the key")
        }
    }
    /// A file or folder, relative to the project file's folder.
    static var path: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.path() } }
    static var sizes: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.sizes() } }
    static var classPrefix: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.classPrefix() } }
}

extension SettingValue where Value == Bool {
    static var bool: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.bool() } }
}

extension SettingValue where Value == Density {
    static var density: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.density() } }
}

extension SettingValue where Value == [Density] {
    static var densities: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.densities() } }
}

extension SettingValue where Value == WidthRequest {
    static var widths: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.widths() } }
}

extension SettingValue where Value == [ImageFormat] {
    static var formats: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.formats() } }
}

extension SettingValue where Value == [PathGlob] {
    static var patterns: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.patterns() } }
}

extension SettingValue where Value == [String] {
    static var pagePatterns: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.pagePatterns() } }
}

extension SettingValue where Value == FailOn {
    static var failOn: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.failOn() } }
}

extension SettingValue where Value == PlaceholderStyle {
    static var placeholder: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.placeholder() } }
}

extension SettingValue where Value == CoverBox {
    static var cover: SettingValue { SettingValue { entry throws(ProjectFileError) in try entry.cover() } }
}
