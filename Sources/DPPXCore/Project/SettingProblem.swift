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
    /// The number settings and their bounds, in the order they are checked.
    static var numberBounds: [(path: WritableKeyPath<ProjectSettings, Int?>, flag: String, key: String, range: ClosedRange<Int>, example: Int)] { [
        (\.maxPixels, "max-pixels", "build.max-pixels", 1...Int.max, 100_000_000),
        (\.maxFrames, "max-frames", "build.max-frames", 1...Int.max, 1000),
        (\.maxScans, "max-scans", "build.max-scans", 1...Int.max, 100),
        (\.jobs, "jobs", "build.jobs", 1...256, 4),
        (\.avifEffort, "avif-effort", "build.avif-effort", 0...9, 2),
        (\.jxlQuality, "jxl-quality", "build.jxl-quality", 1...100, 90),
        (\.pngCompression, "png-compression", "build.png-compression", 0...9, 6),
        (\.port, "port", "serve.port", 0...65535, 8080),
        (\.idleTimeout, "idle-timeout", "serve.idle-timeout", 1...86_400, 30),
    ] }

    /// The encoder qualities: a number in 1...100, or `auto`.
    static var qualityBounds: [(path: WritableKeyPath<ProjectSettings, EncoderQuality?>, flag: String, key: String, example: Int)] { [
        (\.jpegQuality, "quality", "build.quality", 80),
        (\.webpQuality, "webp-quality", "build.webp-quality", 80),
        (\.avifQuality, "avif-quality", "build.avif-quality", 55),
    ] }

    /// The SSIMULACRA2 targets of `auto` qualities, 0 to 100.
    static var targetBounds: [(path: WritableKeyPath<ProjectSettings, Double?>, flag: String, key: String, example: Int)] { [
        (\.qualityTarget, "quality-target", "build.quality-target", Int(QualityTargets.defaultStandard)),
        (\.qualityTargetHiDPI, "quality-target-hidpi", "build.quality-target-hidpi", Int(QualityTargets.defaultHiDPI)),
    ] }

    /// The first number setting out of bounds, or nil.
    public var outOfBounds: SettingProblem? {
        for bound in Self.qualityBounds {
            guard let value = self[keyPath: bound.path]?.fixedValue, !(1...100).contains(value) else { continue }
            return SettingProblem(flag: bound.flag, key: bound.key, allowed: "between 1 and 100, or auto", example: String(bound.example),
                                  value: String(value))
        }
        for bound in Self.targetBounds {
            guard let value = self[keyPath: bound.path], !QualityTargets.range.contains(value) else { continue }
            let shown = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            return SettingProblem(flag: bound.flag, key: bound.key, allowed: "a score between 0 and 100", example: String(bound.example),
                                  value: shown)
        }
        for bound in Self.numberBounds {
            guard let value = self[keyPath: bound.path], !bound.range.contains(value) else { continue }
            let allowed = bound.range.upperBound == Int.max ? "a positive number"
                : "between \(bound.range.lowerBound) and \(bound.range.upperBound)"
            return SettingProblem(flag: bound.flag, key: bound.key, allowed: allowed, example: String(bound.example),
                                  value: String(value))
        }
        return nil
    }
}
