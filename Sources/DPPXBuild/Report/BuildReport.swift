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
        return "\(total) image\(total == 1 ? "" : "s"): \(parts.joined(separator: ", ")) in \(String(format: "%.2f", seconds)) s"
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
    }

    public func summary(manifestPath: String) -> Summary {
        Summary(built: built, unchanged: unchanged, removed: removed, failures: failures, warnings: warnings,
                skipped: skipped, filesWritten: filesWritten, images: manifest.images.count,
                variants: manifest.images.reduce(0) { $0 + $1.variants.count },
                seconds: (seconds * 1000).rounded() / 1000, manifest: manifestPath)
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
