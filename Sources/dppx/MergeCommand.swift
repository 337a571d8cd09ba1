import ArgumentParser
import DPPXBuild
import DPPXCore
import Foundation

/// `dppx merge PART... --out OUT`: the partial manifests of a sharded build become OUT's manifest.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the partial manifests of 'dppx build --shard K/N' into OUT's dppx-manifest.json.",
        discussion: """
        Each PART is a folder a shard built into (its dppx-manifest.shard-K-of-N.json files are taken) or one such file; without PART, OUT itself. The variants must already be in OUT: build every shard into OUT, or copy the shards' folders into it first. The manifest written is byte for byte the one a single 'dppx build' of the same masters writes; 'dppx css', 'dppx html' and 'dppx serve' then work as usual.

        Nothing is written when a shard is missing or given twice, when shards were built with different settings, dppx versions or sources, when two shards claim one master, or when a file they list is not in OUT: the error names the files. Files of masters deleted since the previous manifest are removed, and so are the merged partial manifests inside OUT. Then, as 'dppx build' does after its images, the stylesheet [css] file names in dppx.toml is written and the [rewrite] pages are rewritten (shards write neither, their manifests being partial).

        Exit status: 0 merged, 1 the shards do not merge (or a page or the stylesheet failed), 2 wrong usage (OUT or a PART missing).

        Examples:
          dppx merge --out public/img          # shards built into public/img
          dppx merge shard-1 shard-2 shard-3 shard-4 --out public/img
        """
    )

    @Argument(help: ArgumentHelp("Folders the shards built into, or their partial manifests (default: OUT).", valueName: "PART"))
    var parts: [String] = []

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder that holds every shard's variants, where dppx-manifest.json goes (default: [build] out in dppx.toml).", valueName: "OUT"))
    var out: String?

    @OptionGroup var project: ProjectOption

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(help: "Print a JSON summary on stdout (each shard's masters, files and bytes) instead of lines.")
    var json = false

    func run() async throws {
        let settings = try project.load()
        guard let output = out ?? settings.output else {
            throw ValidationError("Missing expected argument '--out <OUT>': the folder that holds the shards' variants, e.g. dppx merge --out public/img (or out under [build] in dppx.toml)")
        }
        let report: MergeReport
        do { report = try ManifestMerger.merge(parts: parts.isEmpty ? [output] : parts, into: output) } catch {
            Terminal.error(error.description)
            throw ExitCode(error.isUsageError ? ExitStatus.usage : ExitStatus.failure)
        }
        for warning in report.warnings { Terminal.warning(warning.description) }
        if json {
            Terminal.printJSON(Summary(shards: report.shards, images: report.manifest.images.count,
                                       files: report.manifest.images.reduce(0) { $0 + $1.variants.count },
                                       removed: report.removed, seconds: (report.seconds * 1000).rounded() / 1000,
                                       manifest: output + "/" + Manifest.fileName))
        } else if !quiet {
            for share in report.shards {
                Terminal.out("shard \(share.shard) of \(share.of): \(share.masters) master\(share.masters == 1 ? "" : "s"), \(share.files) file\(share.files == 1 ? "" : "s"), \(Self.megabytes(share.bytes)) (\(share.file))")
            }
            Terminal.out(report.summaryLine + ": wrote \(output)/\(Manifest.fileName)")
        }
        // Now that the manifest is whole: what one build writes after its images.
        if !SiteFiles(settings: settings).write(manifest: report.manifest, imageRoot: output, quiet: quiet || json) {
            throw ExitCode(ExitStatus.failure)
        }
    }

    static func megabytes(_ bytes: Int) -> String { String(format: "%.2f MB", Double(bytes) / 1_000_000) }

    /// What `--json` prints.
    struct Summary: Encodable {
        var shards: [MergeReport.ShardShare]
        var images: Int
        var files: Int
        var removed: [String]
        var seconds: Double
        var manifest: String
    }
}
