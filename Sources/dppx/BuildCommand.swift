import ArgumentParser
import DPPXBuild
import DPPXCore
import DPPXImaging
import Foundation

/// `dppx build SRC --out OUT`: density variants of every master in SRC, and a manifest.
struct BuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Write density variants (hero.jpg, hero@1.5x.jpg, hero@2x.jpg) of every image in a folder.",
        discussion: """
        Masters are taken as 2x unless their name says otherwise (logo@3x.png is a 3x master).
        Each variant is the CSS size times its density; densities above the master's are skipped.
        A second run rebuilds only what changed. Exit status: 0 all built, 1 some images failed
        (each named on stderr), 2 wrong usage.

        Examples:
          dppx build Examples --out Public
          dppx build src/img --out public/img --densities 1,2,3 --formats webp,avif
          dppx build photos --out site --source-density 3 --quality 78 --json
          dppx build Examples --out Public --css Public/samples.css
        """
    )

    @Argument(help: ArgumentHelp("The folder of master images (searched recursively), or one image.", valueName: "SRC"))
    var source: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where variants and dppx-manifest.json go; folders mirror SRC's.", valueName: "OUT"))
    var out: String

    @OptionGroup var variants: VariantOptions

    @Option(help: ArgumentHelp("Refuse masters with more pixels than this (decompression bombs).", valueName: "N"))
    var maxPixels: Int = BuildOptions.defaultMaxPixels

    @Option(help: ArgumentHelp("Refuse animations with more frames (or TIFFs with more pages) than this.", valueName: "N"))
    var maxFrames: Int = DecodeLimits.defaultMaxFrames

    @Option(help: ArgumentHelp("Refuse progressive JPEGs with more scans than this.", valueName: "N"))
    var maxScans: Int = DecodeLimits.defaultMaxScans

    @Option(name: .shortAndLong, help: ArgumentHelp("Worker threads, and masters held in memory at once (default: the number of cores).", valueName: "N"))
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("JPEG quality, 1-100.", valueName: "Q"))
    var quality: Int = EncodeSettings().jpegQuality

    @Option(help: ArgumentHelp("WebP quality, 1-100.", valueName: "Q"))
    var webpQuality: Int = EncodeSettings().webpQuality

    @Option(help: ArgumentHelp("AVIF quality, 1-100.", valueName: "Q"))
    var avifQuality: Int = EncodeSettings().avifQuality

    @Option(help: ArgumentHelp("AVIF encoder effort, 0 (fast) to 9 (small).", valueName: "N"))
    var avifEffort: Int = EncodeSettings().avifEffort

    @Option(help: ArgumentHelp("PNG compression level, 0 (fast) to 9 (small).", valueName: "N"))
    var pngCompression: Int = EncodeSettings().pngCompression

    @Option(help: ArgumentHelp("Also write the density stylesheet (as 'dppx css OUT -o FILE' would), rewritten only when it changes.", valueName: "FILE"))
    var css: String?

    @Option(help: ArgumentHelp("A folder with your copies of dppx's templates, for --css.", valueName: "DIR"))
    var templates: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(help: "Print a JSON summary on stdout instead of progress lines.")
    var json = false

    func validate() throws {
        try variants.validate()
        guard maxPixels > 0 else { throw ValidationError("--max-pixels must be a positive number of pixels, e.g. --max-pixels 100000000; got \(maxPixels)") }
        guard maxFrames > 0 else { throw ValidationError("--max-frames must be a positive number of frames, e.g. --max-frames 5000; got \(maxFrames)") }
        guard maxScans > 0 else { throw ValidationError("--max-scans must be a positive number of scans, e.g. --max-scans 500; got \(maxScans)") }
        guard jobs > 0, jobs <= 256 else { throw ValidationError("--jobs must be between 1 and 256, e.g. --jobs 4; got \(jobs)") }
        for (flag, value) in [("--quality", quality), ("--webp-quality", webpQuality), ("--avif-quality", avifQuality)] {
            guard (1...100).contains(value) else { throw ValidationError("\(flag) must be between 1 and 100, e.g. \(flag) 80; got \(value)") }
        }
        guard (0...9).contains(avifEffort) else { throw ValidationError("--avif-effort must be between 0 and 9; got \(avifEffort)") }
        guard (0...9).contains(pngCompression) else { throw ValidationError("--png-compression must be between 0 and 9; got \(pngCompression)") }
    }

    func run() throws {
        var encode = EncodeSettings()
        encode.jpegQuality = quality
        encode.webpQuality = webpQuality
        encode.avifQuality = avifQuality
        encode.avifEffort = avifEffort
        encode.pngCompression = pngCompression
        let options = BuildOptions(sourceRoot: source, outputRoot: out, plan: try variants.planSettings(),
                                   maxPixels: maxPixels, maxFrames: maxFrames, maxScans: maxScans, jobs: jobs, encode: encode)
        let progress = BuildProgress(mode: json ? .silent : quiet ? .errorsOnly : .normal)
        let report: BuildReport
        do {
            report = try Builder(options: options).run(onEvent: progress.handle)
        } catch {
            progress.finish()
            Terminal.error(error.description)
            throw ExitCode(ExitStatus.failure)
        }
        progress.finish()
        let stylesheetFailed = css.map { writeStylesheet(report.manifest, to: $0) } ?? false
        if json {
            Terminal.printJSON(report.summary(manifestPath: out + "/" + Manifest.fileName))
        } else if !quiet {
            Terminal.out(report.summaryLine)
        }
        if !report.succeeded {
            if !json { Terminal.error("\(report.failures.count) image\(report.failures.count == 1 ? "" : "s") failed; the rest were built") }
            throw ExitCode(ExitStatus.failure)
        }
        if stylesheetFailed { throw ExitCode(ExitStatus.failure) }
    }

    /// Writes `--css FILE` from the new manifest; true when it failed (said on stderr).
    private func writeStylesheet(_ manifest: Manifest, to path: String) -> Bool {
        do {
            if try StylesheetWriter.write(manifest: manifest, imageRoot: out, to: path, templatesFolder: templates), !quiet, !json {
                Terminal.out("wrote \(path)")
            }
            return false
        } catch {
            Terminal.error("\(path): \(error)")
            return true
        }
    }
}
