import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// Everything `dppx build` needs to know.
public struct BuildOptions: Sendable {
    /// The folder of masters, walked recursively.
    public var sourceRoot: String
    /// Where variants and the manifest go; folders mirror the source's.
    public var outputRoot: String
    /// Densities, default source density, extra formats, upscaling.
    public var plan: PlanSettings
    /// What one master may cost to decode; a master over a limit is refused before decoding.
    public var limits: DecodeLimits
    /// Masters with more pixels than this (every frame together) are refused: `limits.maxPixels`.
    public var maxPixels: Int {
        get { limits.maxPixels }
        set { limits.maxPixels = newValue }
    }
    /// Worker threads, and the most masters open (decoded in memory) at once; each worker uses
    /// cores / jobs libvips threads.
    public var jobs: Int
    /// Encoder qualities and efforts.
    public var encode: EncodeSettings
    /// Where the incremental cache goes (`--cache-dir`); nil: `.dppx-cache` in the working
    /// folder (beside OUT when that is inside OUT). Never OUT itself: OUT is what gets published.
    public var cacheDirectory: String?
    /// Working memory per worker for decoded masters and encodes (estimated): tasks wait rather
    /// than run together past `jobs` times this. Enough for a 4096x4096 master and its WebP
    /// encode next to smaller work; one task always runs, however large.
    public var memoryPerJob = 112 << 20
    /// The slice of the masters this build takes (`--shard K/N`); nil: all of them.
    public var shard: Shard?
    /// Masters in SRC that are links to files outside it are built (`--allow-outside-project`);
    /// by default they are refused with a warning (`SourceScanner`).
    public var allowsLinksOutOfSource = false
    /// Pages are rewritten after this build (`SiteBuild` with `[rewrite] pages`): the files it
    /// no longer lists are not removed at its end but kept as retired in the cache, and removed
    /// once no rewritten page names them (`RetiredFiles`). A page left as it was, or a run
    /// stopped between the build and the rewrite, never names a file that is gone.
    public var defersRemoval = false
    /// Folders published besides OUT (`[rewrite] root`, `[serve] root`): the default cache
    /// folder is never inside one (`BuildCache.path`).
    public var publishedRoots: [String] = []

    /// See `DecodeLimits.defaultMaxPixels`.
    public static let defaultMaxPixels = DecodeLimits.defaultMaxPixels
    public static let defaultMaxFrames = DecodeLimits.defaultMaxFrames
    public static let defaultMaxScans = DecodeLimits.defaultMaxScans

    public init(sourceRoot: String, outputRoot: String, plan: PlanSettings = PlanSettings(),
                maxPixels: Int = BuildOptions.defaultMaxPixels, maxFrames: Int = DecodeLimits.defaultMaxFrames,
                maxScans: Int = DecodeLimits.defaultMaxScans,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, encode: EncodeSettings = EncodeSettings(),
                cacheDirectory: String? = nil) {
        self.sourceRoot = sourceRoot
        self.outputRoot = outputRoot
        self.plan = plan
        self.limits = DecodeLimits(maxPixels: maxPixels, maxFrames: maxFrames, maxScans: maxScans)
        self.jobs = jobs
        self.encode = encode
        self.cacheDirectory = cacheDirectory
    }

    public var densities: [Density] { plan.densities }

    /// Whether the variants go beside the masters (SRC and OUT are one folder): see `InPlaceSite`.
    public var buildsInPlace: Bool { PathContainment.canonical(sourceRoot) == PathContainment.canonical(outputRoot) }
    public var extraFormats: [ImageFormat] { plan.extraFormats }
}

extension BuildOptions {
    /// The build `settings` describe, from `sourceRoot` into `outputRoot`, with the defaults
    /// for what they do not say.
    public init(settings: ProjectSettings, sourceRoot: String, outputRoot: String) {
        self.init(sourceRoot: sourceRoot, outputRoot: outputRoot, plan: settings.planSettings,
                  jobs: settings.jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                  encode: EncodeSettings(settings: settings))
        limits = DecodeLimits(settings: settings)
    }
}

extension BuildOptions {
    /// The masters this build takes: the source folder's, less those a rule excludes (their
    /// outputs, if any, are removed as if the master were deleted); and the files that are not
    /// images (`notes.txt`), which the build leaves alone and reports; and the links out of
    /// SRC it refused.
    public func scanSources() throws(BuildError)
        -> (sources: [SourceFile], rejected: [FileProblem], skipped: [String], refusedLinks: [FileProblem]) {
        let (sources, rejected, skipped, refused) = try SourceScanner(root: sourceRoot, excluding: outputRoot,
                                                                      allowingLinksOut: allowsLinksOutOfSource).scanReportingSkipped()
        guard !plan.rules.isEmpty else { return (sources, rejected, skipped, refused) }
        return (sources.filter { !plan.excludes($0.relativePath) }, rejected.filter { !plan.excludes($0.file) }, skipped,
                refused.filter { !plan.excludes($0.file) })
    }
}

extension BuildOptions {
    /// In place (`buildsInPlace`), which files are dppx's: the variants `previous` lists, the
    /// files `cache` keeps as retired (`RetiredFiles`) and those an interrupted build recorded
    /// (`written`, `BuildJournal`); nil for a build into a folder of its own. The build and
    /// `ManifestPredictor` tell masters from outputs with it, so both read the same masters.
    func inPlaceSite(previous: Manifest, cache: BuildCache?, written: Set<String> = []) -> InPlaceSite? {
        buildsInPlace ? InPlaceSite(previous: previous, retired: cache?.retired.map(\.path) ?? [], written: written) : nil
    }
}

extension BuildOptions {
    /// The incremental cache's file for this build's OUT (and shard): see `BuildCache.path`.
    var cachePath: String {
        BuildCache.path(output: outputRoot, cacheFolder: cacheDirectory, shard: shard, published: publishedRoots)
    }
}
