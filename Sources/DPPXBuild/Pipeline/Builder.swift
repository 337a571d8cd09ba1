import DPPXCore
import DPPXImaging
import Foundation

/// Builds a folder of masters into density variants and a manifest, incrementally:
/// unchanged masters are not read, changed ones are rebuilt, deleted ones have their
/// outputs removed, and a master that fails keeps whatever it had built before.
///
/// With a shard (`options.shard`) it does all this for the masters of its slice only, writes a
/// partial manifest instead of `dppx-manifest.json`, and lets the other shards write OUT at
/// the same time: nothing outside its slice is read from the previous manifest or removed.
public final class Builder: Sendable {
    public let options: BuildOptions

    /// Bumped when the pipeline's output for the same settings changes, so old outputs rebuild.
    static let pipelineVersion = 8

    public init(options: BuildOptions) {
        self.options = options
    }

    /// Runs the build. Throws only when nothing can be built at all (missing source, locked or
    /// unwritable output); per-master failures are in the report.
    ///
    /// Three steps, each in its own file: `BuildSession` opens what the whole build holds (the
    /// checks, the locks, the cache, the previous manifest), `BuildScheduler` builds the masters
    /// on the worker threads (each through `MasterBuilder`'s steps), and `BuildAssembly` writes
    /// the manifest and the cache, removes the orphans and makes the report.
    public func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws(BuildError) -> BuildReport {
        let session = try BuildSession(options: options, fingerprint: settingsFingerprint, onEvent: onEvent)
        // The locks are held until the report is made.
        defer { withExtendedLifetime(session) {} }
        let results = BuildScheduler(session: session).run(onEvent: onEvent)
        return try BuildAssembly(session: session).finish(results, onEvent: onEvent)
    }

    /// Identifies every setting that changes output bytes.
    func settingsFingerprint() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        struct Fingerprint: Encodable {
            let pipeline: Int
            let plan: PlanSettings
            let encode: EncodeSettings
            let vips: String
            /// Only with an `auto` quality (nil is left out, so other builds' fingerprints stay).
            let search: Int?
        }
        // libvips's ORC code rounds a little differently from its C paths (DPPX_VIPS_VECTOR=0 turns it off).
        let vips = Vips.version + (Vips.usesORC && Vips.vectorCodeEnabled ? " orc" : "")
        let searches = searchesQuality
        // `compare-fixed` changes what a searched variant's manifest entry records, nothing else.
        var encode = options.encode
        if !searches { encode.compareFixed = nil }
        let data = (try? encoder.encode(Fingerprint(pipeline: Self.pipelineVersion, plan: options.plan,
                                                    encode: encode, vips: vips, search: searches ? QualitySearch.version : nil))) ?? Data()
        return ContentHash.sha256(Array(data))
    }

    /// Whether any master may have its quality searched: the build's settings or a rule's,
    /// applied as `MasterBuilder` applies them, ask `auto` of some format. Only such builds
    /// carry the search's version in their fingerprint.
    var searchesQuality: Bool {
        ([options.encode] + options.plan.rules.map(options.encode.applying)).contains { settings in
            ImageFormat.allCases.contains { settings.quality(for: $0) == .auto }
        }
    }
}
