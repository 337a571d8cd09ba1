import ArgumentParser
import DPPXBuild
import DPPXCore

/// How masters are read and encoded, and how much of the machine a build takes: `build` and
/// `serve --watch` share them. Each is nil when not given (the project file or the default applies).
struct EncoderOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Refuse masters with more pixels than this, read from the header (decompression bombs, counting every frame; default: \(BuildOptions.defaultMaxPixels)).", valueName: "N"))
    var maxPixels: Int?

    @Option(help: ArgumentHelp("Refuse animations with more frames (or TIFFs with more pages) than this (default: \(BuildOptions.defaultMaxFrames)).", valueName: "N"))
    var maxFrames: Int?

    @Option(help: ArgumentHelp("Refuse progressive JPEGs with more scans than this (default: \(BuildOptions.defaultMaxScans)).", valueName: "N"))
    var maxScans: Int?

    @Option(help: ArgumentHelp("Refuse masters this damaged: none, truncated, error or warning (default: \(FailOn.default.rawValue); warning also refuses the extraneous bytes cameras write).", valueName: "LEVEL"))
    var failOn: FailOn?

    @Option(name: .shortAndLong, help: ArgumentHelp("Worker threads, and masters held in memory at once (default: the number of cores).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("JPEG quality, 1-100, or auto: per variant, the smallest file that reaches the quality target (default: 82).", valueName: "Q"))
    var quality: EncoderQuality?

    @Option(help: ArgumentHelp("WebP quality, 1-100, or auto (default: 80).", valueName: "Q"))
    var webpQuality: EncoderQuality?

    @Option(help: ArgumentHelp("AVIF quality, 1-100, or auto (default: 55).", valueName: "Q"))
    var avifQuality: EncoderQuality?

    @Option(help: ArgumentHelp("SSIMULACRA2 score auto qualities aim at for variants drawn below 1.5x and fluid widths, 0-100 (default: \(Int(QualityTargets.defaultStandard)): very high quality).", valueName: "SCORE"))
    var qualityTarget: Double?

    @Option(help: ArgumentHelp("SSIMULACRA2 score auto qualities aim at for variants drawn at 1.5x and above, 0-100 (default: \(Int(QualityTargets.defaultHiDPI)), or 10 below --quality-target).", valueName: "SCORE"))
    var qualityTargetHidpi: Double?

    @Option(help: ArgumentHelp("AVIF encoder effort, 0 (fast) to 9 (small) (default: 2).", valueName: "N"))
    var avifEffort: Int?

    @Option(help: ArgumentHelp("JPEG XL quality, 1-100, for --formats jxl variants encoded from pixels (default: lossless for PNG masters, 90 for others; a JPEG variant's JXL is always its lossless recompression).", valueName: "Q"))
    var jxlQuality: Int?

    @Option(help: ArgumentHelp("PNG compression level, 0 (fast) to 9 (small) (default: 6).", valueName: "N"))
    var pngCompression: Int?

    func validate() throws {
        if let problem = settings.outOfBounds { throw ValidationError(problem.message(flags: true)) }
    }

    /// What these flags say.
    var settings: ProjectSettings {
        var settings = ProjectSettings()
        settings.maxPixels = maxPixels
        settings.maxFrames = maxFrames
        settings.maxScans = maxScans
        settings.failOn = failOn
        settings.jobs = jobs
        settings.jpegQuality = quality
        settings.webpQuality = webpQuality
        settings.avifQuality = avifQuality
        settings.qualityTarget = qualityTarget
        settings.qualityTargetHiDPI = qualityTargetHidpi
        settings.avifEffort = avifEffort
        settings.jxlQuality = jxlQuality
        settings.pngCompression = pngCompression
        return settings
    }
}
