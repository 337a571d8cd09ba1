import ArgumentParser
import DPPXBuild
import DPPXCore

/// How masters are read and encoded, and how much of the machine a build takes: `build` and
/// `serve --watch` share them. Each is nil when not given (the project file or the default applies).
struct EncoderOptions: ParsableArguments {
    @Option(name: SettingRegistry.maxPixels.name(), help: SettingRegistry.maxPixels.argumentHelp)
    var maxPixels: Int?

    @Option(name: SettingRegistry.maxFrames.name(), help: SettingRegistry.maxFrames.argumentHelp)
    var maxFrames: Int?

    @Option(name: SettingRegistry.maxScans.name(), help: SettingRegistry.maxScans.argumentHelp)
    var maxScans: Int?

    @Option(name: SettingRegistry.failOn.name(), help: SettingRegistry.failOn.argumentHelp)
    var failOn: FailOn?

    @Option(name: SettingRegistry.jobs.name(short: "j"), help: SettingRegistry.jobs.argumentHelp)
    var jobs: Int?

    @Option(name: SettingRegistry.jpegQuality.name(), help: SettingRegistry.jpegQuality.argumentHelp)
    var quality: EncoderQuality?

    @Option(name: SettingRegistry.webpQuality.name(), help: SettingRegistry.webpQuality.argumentHelp)
    var webpQuality: EncoderQuality?

    @Option(name: SettingRegistry.avifQuality.name(), help: SettingRegistry.avifQuality.argumentHelp)
    var avifQuality: EncoderQuality?

    @Option(name: SettingRegistry.qualityTarget.name(), help: SettingRegistry.qualityTarget.argumentHelp)
    var qualityTarget: Double?

    @Option(name: SettingRegistry.qualityTargetHiDPI.name(), help: SettingRegistry.qualityTargetHiDPI.argumentHelp)
    var qualityTargetHidpi: Double?

    @Option(name: SettingRegistry.webpEffort.name(), help: SettingRegistry.webpEffort.argumentHelp)
    var webpEffort: Int?

    @Option(name: SettingRegistry.avifEffort.name(), help: SettingRegistry.avifEffort.argumentHelp)
    var avifEffort: Int?

    @Option(name: SettingRegistry.jxlQuality.name(), help: SettingRegistry.jxlQuality.argumentHelp)
    var jxlQuality: EncoderQuality?

    @Option(name: SettingRegistry.pngCompression.name(), help: SettingRegistry.pngCompression.argumentHelp)
    var pngCompression: Int?

    @Flag(name: SettingRegistry.compareFixed.name(), inversion: .prefixedNo, help: SettingRegistry.compareFixed.argumentHelp)
    var compareFixed: Bool?

    @Flag(name: SettingRegistry.recompressPNG.name(), inversion: .prefixedNo, help: SettingRegistry.recompressPNG.argumentHelp)
    var recompressPNG: Bool?

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
        settings.webpEffort = webpEffort
        settings.avifEffort = avifEffort
        settings.jxlQuality = jxlQuality
        settings.pngCompression = pngCompression
        settings.compareFixed = compareFixed
        settings.recompressPNG = recompressPNG
        return settings
    }
}
