import DPPXCore
import DPPXFiles
import DPPXImaging

/// The manifest a build would write, from image headers only: lets `dppx css` run on a folder
/// of masters without waiting for (or doing) the resizing. Names and sizes are exactly the
/// build's, because both come from `ImagePlan`; byte sizes and hashes are left 0 and empty.
public enum ManifestPredictor {
    public struct Prediction: Sendable {
        public var manifest: Manifest
        /// Masters whose headers could not be read, and name collisions.
        public var failures: [FileProblem]
        /// Every master read, absolute paths: what a make depfile lists.
        public var inputs: [String]
        /// Masters that would write another's files: many of them mean the folder holds
        /// variants a build wrote, not masters.
        public var collisions: [FileProblem]
    }

    public static func predict(options: BuildOptions) throws(BuildError) -> Prediction {
        do { try Vips.start() } catch { throw .file(FileError(path: "libvips", operation: .read, errno: 0, detail: error.reason)) }
        var (sources, rejected, _, _) = try options.scanSources()
        // In place, the variants an earlier build wrote beside the masters are not masters. (A
        // folder of variants with no manifest is not a site built in place: its collisions say so.)
        if options.buildsInPlace {
            let (previous, _, _) = BuildSession.previousManifest(in: OutputFolder(root: options.outputRoot), shard: options.shard)
            if !previous.images.isEmpty {
                let cache = BuildCache.load(from: options.cachePath)
                let written = BuildJournal(cachePath: options.cachePath).earlier
                sources = options.inPlaceSite(previous: previous, cache: cache, written: written)?.masters(among: sources) ?? sources
            }
        }
        let (buildable, collisions) = BuildSession.separateCollisions(sources, extraFormats: options.extraFormats, plan: options.plan)
        var failures = rejected + collisions
        var images: [Manifest.Image] = []
        for source in buildable {
            do {
                let master = try MasterOpener.open(source, limits: options.limits)
                let plan = ImagePlan(name: source.name, source: source.relativePath, masterSize: master.size,
                                     hasAlpha: master.hasAlpha, animated: master.frames > 1, settings: options.plan)
                guard !plan.outputs.isEmpty else {
                    failures.append(FileProblem(file: source.relativePath, reason: "has no density to write (every density asked for is above its \(plan.masterDensity)x)"))
                    continue
                }
                images.append(plan.manifestImage(sourceHash: "", files: [:]))
            } catch {
                failures.append(error)
            }
        }
        return Prediction(manifest: Manifest(images: images), failures: failures.sorted { $0.file < $1.file },
                          inputs: sources.map(\.absolutePath), collisions: collisions)
    }
}
