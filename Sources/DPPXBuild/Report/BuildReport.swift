import DPPXCore
import Foundation

/// What a build did, for the terminal summary, `--json` and the server's dev mode.
public struct BuildReport: Sendable {
    /// The manifest now on disk.
    public var manifest: Manifest
    /// Masters (re)built this run, relative paths.
    public var built: [String] = []
    /// Masters whose outputs were already up to date.
    public var unchanged: [String] = []
    /// Files removed because their master was deleted or now writes other files.
    public var removed: [String] = []
    /// Masters that failed; their previous outputs, if any, are kept.
    public var failures: [BuildFailure] = []
    /// Things done differently from what was asked (skipped densities, formats).
    public var warnings: [BuildFailure] = []
    /// Files in the source folder that are not images dppx reads (`notes.txt`), left alone.
    public var skipped: [String] = []
    /// Output files written this run.
    public var filesWritten = 0
    /// Wall time.
    public var seconds: Double = 0

    /// True when every master built: the exit status is 0.
    public var succeeded: Bool { failures.isEmpty }

    /// `12 images: 3 built, 9 unchanged, 1 removed, 1 failed in 1.2 s`.
    public var summaryLine: String {
        var parts = ["\(built.count) built", "\(unchanged.count) unchanged"]
        if !removed.isEmpty { parts.append("\(removed.count) file\(removed.count == 1 ? "" : "s") removed") }
        if !failures.isEmpty { parts.append("\(failures.count) failed") }
        if let example = skipped.first {
            parts.append("\(skipped.count) other file\(skipped.count == 1 ? "" : "s") skipped (not images dppx reads, such as \(example))")
        }
        let total = built.count + unchanged.count + failures.count
        let line = "\(total) image\(total == 1 ? "" : "s"): \(parts.joined(separator: ", ")) in \(String(format: "%.2f", seconds)) s"
        guard let savings = qualitySavings else { return line }
        return line + "\n" + savings.summaryLine
    }

    /// What `auto` qualities saved across the manifest's variants, against the same variants
    /// at the default fixed qualities; nil when no variant was searched.
    public var qualitySavings: QualitySavings? {
        let searched = manifest.images.flatMap(\.variants).filter { $0.fixedQualityBytes != nil }
        guard !searched.isEmpty else { return nil }
        let bytes = searched.reduce(0) { $0 + $1.bytes }
        let fixed = searched.reduce(0) { $0 + ($1.fixedQualityBytes ?? 0) }
        return QualitySavings(variants: searched.count, bytes: bytes, fixedQualityBytes: fixed,
                              savedBytes: fixed - bytes, lowestScore: searched.compactMap(\.score).min() ?? 0)
    }

    /// The bytes `quality = "auto"` saved.
    public struct QualitySavings: Codable, Sendable, Equatable {
        /// Variants whose quality was searched.
        public var variants: Int
        /// Their bytes as written.
        public var bytes: Int
        /// Their bytes at the default fixed qualities (JPEG 82, WebP 80, AVIF 55).
        public var fixedQualityBytes: Int
        /// `fixedQualityBytes - bytes` (negative when the targets asked for more than the defaults give).
        public var savedBytes: Int
        /// The lowest SSIMULACRA2 score among them.
        public var lowestScore: Double

        /// `quality auto: 24 variants, 1.2 MB, 31 % smaller than fixed qualities (1.7 MB); lowest score 80.4`.
        public var summaryLine: String {
            let percent = fixedQualityBytes > 0 ? Double(savedBytes) * 100 / Double(fixedQualityBytes) : 0
            let comparison = percent >= 0 ? String(format: "%.0f %% smaller than", percent) : String(format: "%.0f %% larger than", -percent)
            return "quality auto: \(variants) variant\(variants == 1 ? "" : "s"), \(Self.megabytes(bytes)), \(comparison) fixed qualities (\(Self.megabytes(fixedQualityBytes))); lowest score \(String(format: "%.1f", lowestScore))"
        }

        static func megabytes(_ bytes: Int) -> String {
            bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1_000_000) : String(format: "%.0f KB", Double(bytes) / 1000)
        }
    }

    /// The machine-readable summary `--json` prints.
    public struct Summary: Codable, Sendable {
        public var built: [String]
        public var unchanged: [String]
        public var removed: [String]
        public var failures: [BuildFailure]
        public var warnings: [BuildFailure]
        public var skipped: [String]
        public var filesWritten: Int
        public var images: Int
        public var variants: Int
        public var seconds: Double
        public var manifest: String
        /// Present when some variant's quality is `auto`.
        public var autoQuality: QualitySavings?
    }

    public func summary(manifestPath: String) -> Summary {
        Summary(built: built, unchanged: unchanged, removed: removed, failures: failures, warnings: warnings,
                skipped: skipped, filesWritten: filesWritten, images: manifest.images.count,
                variants: manifest.images.reduce(0) { $0 + $1.variants.count },
                seconds: (seconds * 1000).rounded() / 1000, manifest: manifestPath, autoQuality: qualitySavings)
    }
}

/// Progress as a build goes, for live terminal lines and dev-mode logs.
public enum BuildEvent: Sendable {
    /// Planning done: `total` masters to look at, `toBuild` of them need work.
    case started(total: Int, toBuild: Int)
    /// One master finished (built, or failed).
    case built(source: String, variants: Int)
    case failed(BuildFailure)
    case warning(BuildFailure)
}
