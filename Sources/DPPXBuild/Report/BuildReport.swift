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
    public var failures: [FileProblem] = []
    /// Things done differently from what was asked (skipped densities, formats).
    public var warnings: [FileProblem] = []
    /// Files in the source folder that are not images dppx reads (`notes.txt`), left alone.
    public var skipped: [String] = []
    /// Output files written this run.
    public var filesWritten = 0
    /// Extra-format files not written this run: not smaller than the master-format file of
    /// their density or width.
    public var notSmaller: [NotSmallerFile] = []
    /// Extra-format files with an `auto` quality not written this run: no quality reached
    /// their target, and the master-format file of their density did.
    public var underTarget: [UnderTargetFile] = []
    /// Own-size PNG files written this run as their master's bytes, whose master has an alpha
    /// band that is opaque everywhere: `recompress-png` would re-encode them without it.
    public var recompressible: [String] = []
    /// The bytes of the masters the manifest lists.
    public var masterBytes = 0
    /// The bytes of every file the manifest lists: what OUT holds.
    public var outputBytes: Int { manifest.images.reduce(0) { $0 + $1.variants.reduce(0) { $0 + $1.bytes } } }
    /// Wall time.
    public var seconds: Double = 0
    /// Where the cache went, when this build made it outside the project because the
    /// project's folder is published (`BuildCache.userFolder`); nil otherwise.
    public var cacheFolderNote: String?

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

    /// What `auto` qualities wrote across the manifest's variants and, where every searched
    /// variant was also measured at the default fixed quality (`compare-fixed`), what they
    /// saved against it; nil when no variant was searched.
    public var qualitySavings: QualitySavings? {
        let searched = manifest.images.flatMap(\.variants).filter { $0.quality != nil && $0.score != nil }
        guard !searched.isEmpty else { return nil }
        let bytes = searched.reduce(0) { $0 + $1.bytes }
        let baselines = searched.compactMap(\.fixedQualityBytes)
        let fixed = baselines.count == searched.count ? baselines.reduce(0, +) : nil
        // `missesTarget` holds only where both the score and the target are recorded.
        let missed = searched.filter(\.missesTarget).map { variant in
            QualitySavings.MissedTarget(path: variant.path, score: variant.score ?? 0, target: variant.target ?? 0)
        }
        return QualitySavings(variants: searched.count, bytes: bytes, fixedQualityBytes: fixed,
                              savedBytes: fixed.map { $0 - bytes }, lowestScore: searched.compactMap(\.score).min() ?? 0,
                              missedTarget: missed)
    }

    /// The bytes `quality = "auto"` saved.
    public struct QualitySavings: Codable, Sendable, Equatable {
        /// Variants whose quality was searched.
        public var variants: Int
        /// Their bytes as written.
        public var bytes: Int
        /// Their bytes at the default fixed qualities (JPEG 82, WebP 80, AVIF 55), with
        /// `compare-fixed` only.
        public var fixedQualityBytes: Int?
        /// `fixedQualityBytes - bytes` (negative when the targets asked for more than the defaults give).
        public var savedBytes: Int?
        /// The lowest SSIMULACRA2 score among them.
        public var lowestScore: Double
        /// Those no quality brought to their target, written at the top quality: pictures the
        /// format cannot carry at that score (fine noise, saturated lines in WebP), worth a look.
        public var missedTarget: [MissedTarget] = []

        /// A variant written under its target, with its score and the target.
        public struct MissedTarget: Codable, Sendable, Equatable {
            public var path: String
            public var score: Double
            public var target: Double
        }

        /// `quality auto: 24 variants, 1.2 MB, 31 % smaller than fixed qualities (1.7 MB); lowest
        /// score 65.4` (the comparison with `compare-fixed` only), and where some variant missed
        /// its target `; 1 under its target at any quality (such as hero.webp: 77.2 for 80)`.
        public var summaryLine: String {
            var line = "quality auto: \(variants) variant\(variants == 1 ? "" : "s"), \(Self.megabytes(bytes))"
            if let fixedQualityBytes, let savedBytes {
                let percent = fixedQualityBytes > 0 ? Double(savedBytes) * 100 / Double(fixedQualityBytes) : 0
                let comparison = percent >= 0 ? String(format: "%.0f %% smaller than", percent) : String(format: "%.0f %% larger than", -percent)
                line += ", \(comparison) fixed qualities (\(Self.megabytes(fixedQualityBytes)))"
            }
            line += "; lowest score \(String(format: "%.1f", lowestScore))"
            if let example = missedTarget.first {
                let one = missedTarget.count == 1
                line += "; \(missedTarget.count) under \(one ? "its" : "their") target at any quality (such as \(example.path): \(String(format: "%.1f", example.score)) for \(String(format: "%g", example.target)))"
            }
            return line
        }

        static func megabytes(_ bytes: Int) -> String {
            bytes >= 1_000_000 ? String(format: "%.1f MB", Double(bytes) / 1_000_000) : String(format: "%.0f KB", Double(bytes) / 1000)
        }
    }

    /// `public/img holds 5.9 MB for 1.7 MB of masters (3.5x); 12 extra-format files left out, not
    /// smaller than the file they would replace (such as hero@2x.webp: 120 KB, hero@2x.jpg 98 KB)`,
    /// `out` being OUT as the user named it.
    public func diskLine(out: String) -> String {
        var line = "\(out) holds \(Self.size(outputBytes)) for \(Self.size(masterBytes)) of masters"
        if masterBytes > 0 { line += String(format: " (%.1fx)", Double(outputBytes) / Double(masterBytes)) }
        if let example = notSmaller.first {
            line += "; \(notSmaller.count) extra-format file\(notSmaller.count == 1 ? "" : "s") left out, not smaller than the file \(notSmaller.count == 1 ? "it" : "they") would replace (such as \(example.path): \(Self.size(example.bytes)), \(example.replaces) \(Self.size(example.replacedBytes)))"
        }
        if let example = underTarget.first {
            line += "; \(underTarget.count) extra-format file\(underTarget.count == 1 ? "" : "s") left out, under \(underTarget.count == 1 ? "its" : "their") quality target at any quality (such as \(example.path): \(String(format: "%.1f", example.score)) for \(String(format: "%g", example.target)); \(example.replaces) reaches it)"
        }
        return line
    }

    /// `980 B`, `120 KB`, `5.9 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(format: "%.0f KB", Double(bytes) / 1000) }
        return String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    /// Masters whose density was stated (a rule, an `@Nx` name, `--source-density`) and that
    /// have no files above it, as dppx does not upscale: said in one line, not per master.
    public var notUpscaled: [Manifest.Image] {
        manifest.images.filter { $0.intent != .default && !$0.skippedDensities.isEmpty }
    }

    /// `note: 24 masters stated at their density (such as icons/a.png, 1x) get no denser files
    /// (1.5x, 2x): dppx does not upscale; --upscale writes them`; nil when there are none.
    public var notUpscaledNote: String? {
        let masters = notUpscaled
        guard let example = masters.first else { return nil }
        let skipped = Set(masters.flatMap(\.skippedDensities)).sorted().map { "\($0)x" }.joined(separator: ", ")
        return "note: \(masters.count) master\(masters.count == 1 ? "" : "s") stated at \(masters.count == 1 ? "its" : "their") density (such as \(example.source), \(example.sourceDensity)x) \(masters.count == 1 ? "gets" : "get") no denser files (\(skipped)): dppx does not upscale; --upscale writes them"
    }

    /// `note: 7 own-size PNG files are their masters' bytes (such as calla@2x.png), with an alpha
    /// band that is opaque everywhere: --recompress-png re-encodes them without it, usually
    /// smaller (a full-size encode each, once per master)`; nil when there are none. Only what
    /// the build knows without encoding: a master with weak compression is not named.
    public var recompressibleNote: String? {
        guard let example = recompressible.first else { return nil }
        let one = recompressible.count == 1
        return "note: \(recompressible.count) own-size PNG file\(one ? " is its master's" : "s are their masters'") bytes (such as \(example)), with an alpha band that is opaque everywhere: --recompress-png re-encodes \(one ? "it" : "them") without it, usually smaller (a full-size encode each, once per master)"
    }

    /// The machine-readable summary `--json` prints.
    public struct Summary: Codable, Sendable {
        public var built: [String]
        public var unchanged: [String]
        public var removed: [String]
        public var failures: [FileProblem]
        public var warnings: [FileProblem]
        public var skipped: [String]
        /// Masters of stated density not upscaled (see `notUpscaled`).
        public var notUpscaled: [String]
        public var filesWritten: Int
        /// Extra-format files not written this run (see `NotSmallerFile`).
        public var notSmaller: [NotSmallerFile]
        /// Extra-format files not written this run (see `UnderTargetFile`).
        public var underTarget: [UnderTargetFile]
        /// Own-size PNG files `recompress-png` would shrink (see `recompressible`).
        public var recompressible: [String]
        /// What the masters and OUT's files take on disk: OUT's growth over the masters.
        public var masterBytes: Int
        public var outputBytes: Int
        public var images: Int
        public var variants: Int
        public var seconds: Double
        public var manifest: String
        /// Present when some variant's quality is `auto`.
        public var autoQuality: QualitySavings?
        /// Present when the build rewrote measured pages: each page view's image bytes before
        /// and after, per page and image (`PageViewReport`).
        public var pageViews: PageViewCost? = nil
    }

    public func summary(manifestPath: String) -> Summary {
        Summary(built: built, unchanged: unchanged, removed: removed, failures: failures, warnings: warnings,
                skipped: skipped, notUpscaled: notUpscaled.map(\.source), filesWritten: filesWritten,
                notSmaller: notSmaller, underTarget: underTarget, recompressible: recompressible, masterBytes: masterBytes, outputBytes: outputBytes, images: manifest.images.count,
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
    case failed(FileProblem)
    case warning(FileProblem)
}
