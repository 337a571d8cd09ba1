import DPPXCore
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
    /// Working memory per worker for decoded masters and encodes (estimated): tasks wait rather
    /// than run together past `jobs` times this. Enough for a 4096x4096 master and its WebP
    /// encode next to smaller work; one task always runs, however large.
    public var memoryPerJob = 112 << 20

    /// See `DecodeLimits.defaultMaxPixels`.
    public static let defaultMaxPixels = DecodeLimits.defaultMaxPixels

    public init(sourceRoot: String, outputRoot: String, plan: PlanSettings = PlanSettings(),
                maxPixels: Int = BuildOptions.defaultMaxPixels, maxFrames: Int = DecodeLimits.defaultMaxFrames,
                maxScans: Int = DecodeLimits.defaultMaxScans,
                jobs: Int = ProcessInfo.processInfo.activeProcessorCount, encode: EncodeSettings = EncodeSettings()) {
        self.sourceRoot = sourceRoot
        self.outputRoot = outputRoot
        self.plan = plan
        self.limits = DecodeLimits(maxPixels: maxPixels, maxFrames: maxFrames, maxScans: maxScans)
        self.jobs = jobs
        self.encode = encode
    }

    public var densities: [Density] { plan.densities }
    public var extraFormats: [ImageFormat] { plan.extraFormats }
}
