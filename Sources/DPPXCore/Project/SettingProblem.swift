/// A setting outside what dppx accepts, said the way its source spells it: the flag
/// (`--quality`) on the command line, the key (`quality`) in the project file.
public struct SettingProblem: Hashable, Sendable {
    /// The flag, without dashes: `quality`, `webp-quality`.
    public let flag: String
    /// The project-file key, `build.quality`.
    public let key: String
    /// What is allowed, `between 1 and 100`.
    public let allowed: String
    /// An example of a good value.
    public let example: String
    /// The value given.
    public let value: String

    /// `--quality must be between 1 and 100, e.g. --quality 80; got 101` for flags,
    /// `quality must be between 1 and 100, e.g. quality = 80; got 101` for the file.
    public func message(flags: Bool) -> String {
        flags ? "--\(flag) must be \(allowed), e.g. --\(flag) \(example); got \(value)"
              : "\(key) must be \(allowed), e.g. \(key.split(separator: ".").last.map(String.init) ?? key) = \(example); got \(value)"
    }
}

extension ProjectSettings {
    /// The first setting out of its bounds (in `SettingRegistry`), or nil.
    public var outOfBounds: SettingProblem? {
        SettingRegistry.all.lazy.compactMap { $0.problem(self) }.first
    }
}
