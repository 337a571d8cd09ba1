import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// What a build opens before any master is built and holds until its end: the checks that
/// refuse a build outright (SRC inside OUT, an unwritable or locked OUT), the output folder's
/// lock (and a shard's own), the incremental cache's path and what it held, the previous
/// manifest with the warnings about it, and the masters sorted into those to build and those
/// that fail before any work. The locks are released when the session is.
///
/// With a shard, everything here is of its slice: nothing outside it is read from the
/// previous manifest, built or reported.
///
/// Unchecked Sendable: every property is set once in `init`, and the workers only read them;
/// the locks (`BuildLock`, a descriptor) are held, never touched, until the session is released.
final class BuildSession: @unchecked Sendable {
    let options: BuildOptions
    let started: Date
    let shard: Shard?
    /// Files of the site skipped by the scan (not images), in the slice.
    let skipped: [String]
    /// Links the scan refused to follow, in the slice.
    let refusedLinks: [FileProblem]
    /// What OUT held before this build (`previousManifest`), by master too.
    let previous: Manifest
    let previousBySource: [String: Manifest.Image]
    /// Why the previous manifest or a partial one could not be used.
    let previousWarnings: [FileProblem]
    /// The partial manifests read, which a whole build's manifest replaces.
    let partialFiles: [String]
    /// Every master of the site, every shard's (a partial manifest names their listing).
    let masters: [SourceFile]
    /// Masters of the slice to reuse or build.
    let buildable: [SourceFile]
    /// Masters of the slice failed before any work: unreadable, linked into OUT, colliding.
    let unbuilt: [FileProblem]
    /// Where every output is written and removed.
    let folder: OutputFolder
    let cachePath: String
    let oldCache: BuildCache?
    /// Identifies every setting that changes output bytes (`Builder.settingsFingerprint`).
    let fingerprint: String
    private let lock: BuildLock
    private let shardLock: BuildLock?

    /// Opens the build of `options`. Throws only when nothing can be built at all (missing
    /// source, locked or unwritable output); the previous manifest's warnings are told through
    /// `onEvent` as they are found, as a master's are.
    init(options: BuildOptions, fingerprint: () -> String, onEvent: @Sendable (BuildEvent) -> Void) throws(BuildError) {
        self.options = options
        started = Date()
        let output = options.outputRoot
        do { try Vips.start() } catch { throw .file(FileError(path: "libvips", operation: .read, errno: 0, detail: error.reason)) }
        try Self.checkLayout(source: options.sourceRoot, output: output)
        let shard = options.shard
        self.shard = shard
        let inSlice = { (path: String) in shard?.contains(path) ?? true }
        let (sources, rejected, allSkipped, refusedLinks) = try options.scanSources()
        // In place, the manifest (and the layout file beside it) lies among the masters: no
        // file of the site's to report.
        skipped = allSkipped.filter { inSlice($0) && !(options.buildsInPlace && (OutputFolder.isManifest($0) || $0 == LayoutFile.fileName)) }
        self.refusedLinks = refusedLinks.filter { inSlice($0.file) }
        do { try AtomicFile.createDirectory(output) } catch { throw .file(error) }
        lock = try BuildLock(output: output, shared: shard != nil)
        let outputFolder = OutputFolder(root: output)
        // Shards write OUT at once: a temporary file may be another shard's, still being written.
        if shard == nil { outputFolder.removeStaleTemporaries() }
        BuildCache.removeLegacyFiles(in: output)
        let cachePath = options.cachePath
        self.cachePath = cachePath
        if let shard {
            do { try BuildCache.createFolder(of: cachePath) } catch { throw .file(error) }
            shardLock = try BuildLock(shard: shard, of: output, file: cachePath + ".lock")
        } else {
            shardLock = nil
        }

        let (previous, previousWarnings, partialFiles) = Self.previousManifest(in: outputFolder, shard: shard)
        self.previous = previous
        self.previousWarnings = previousWarnings
        self.partialFiles = partialFiles
        // Told as found, as a master's warnings are: the report's list is not printed.
        for warning in previousWarnings { onEvent(.warning(warning)) }
        // In place, the variants beside the masters are not masters, and only they are dppx's to
        // replace or remove.
        let oldCache = BuildCache.load(from: cachePath)
        self.oldCache = oldCache
        // What an interrupted build wrote without a manifest to say so is dppx's too.
        let journal = options.buildsInPlace ? BuildJournal(cachePath: cachePath) : nil
        let site = options.inPlaceSite(previous: previous, cache: oldCache, written: journal?.earlier ?? [])
        let masters = site?.masters(among: sources) ?? sources
        self.masters = masters
        folder = OutputFolder(root: output, owned: site?.owned, journal: journal)
        previousBySource = Dictionary(previous.images.map { ($0.source, $0) }, uniquingKeysWith: { a, _ in a })
        self.fingerprint = fingerprint()

        // Collisions are found among all masters, so every shard fails the same ones as a whole build.
        // In place every master is inside OUT, and no file dppx did not write is written over.
        let (outsideOutput, linkedIntoOutput) = options.buildsInPlace ? (masters, []) : Self.separateLinksIntoOutput(masters, output: output)
        let (allBuildable, collisions) = Self.separateCollisions(outsideOutput, extraFormats: options.extraFormats, plan: options.plan)
        buildable = allBuildable.filter { inSlice($0.relativePath) }
        unbuilt = (rejected + linkedIntoOutput + collisions).filter { inSlice($0.file) }
    }

    /// Whether the master at `path` is this build's to build: every master, or its shard's.
    func inSlice(_ path: String) -> Bool {
        shard?.contains(path) ?? true
    }

    /// What OUT held before this build, for this build's masters: `dppx-manifest.json`, with
    /// the slice of each partial manifest found beside it (written by shards since the last
    /// merge or whole build) replacing that slice's entries. A shard reads only its own partial
    /// manifest and keeps only its slice. Returns the partial manifests read, and a warning for
    /// each file that could not be used (its masters are rebuilt).
    static func previousManifest(in folder: OutputFolder, shard: Shard?) -> (Manifest, [FileProblem], [String]) {
        var warnings: [FileProblem] = []
        var images: [String: Manifest.Image] = [:]
        let manifestPath = folder.path(Manifest.fileName)
        if let bytes = try? AtomicFile.read(manifestPath) {
            do {
                let whole = try Manifest.decode(bytes)
                try Self.checkPaths(of: whole)
                for image in whole.images where shard?.contains(image.source) ?? true { images[image.source] = image }
            } catch {
                warnings.append(FileProblem(file: manifestPath, reason: "\(error); rebuilding everything"))
            }
        }
        let partialFiles = shard.map { [PartialManifest.fileName(for: $0)] } ?? PartialManifest.names(inFolder: folder.root)
        var read: [String] = []
        for name in partialFiles {
            guard let bytes = try? AtomicFile.read(folder.path(name)) else { continue }
            do {
                let partial = try PartialManifest.decode(bytes)
                try Self.checkPaths(of: Manifest(images: partial.images))
                images = images.filter { !partial.shard.contains($0.key) }
                for image in partial.images where shard?.contains(image.source) ?? true { images[image.source] = image }
                read.append(name)
            } catch {
                warnings.append(FileProblem(file: folder.path(name), reason: "\(error); rebuilding its masters"))
            }
        }
        return (Manifest(images: Array(images.values)), warnings, read)
    }

    /// A manifest is a file in the repository, so a commit can carry any content: one that
    /// lists a path outside the output folder is not used at all (nothing it lists is reused
    /// or removed).
    static func checkPaths(of manifest: Manifest) throws(ManifestPathError) {
        for image in manifest.images {
            for variant in image.variants where !OutputFolder.isInside(variant.path) {
                throw ManifestPathError(path: variant.path, source: image.source)
            }
        }
    }

    /// Refuses, before anything is written, a layout where an output could land on a master:
    /// SRC lies inside OUT. (OUT inside SRC is fine: the scan skips it; SRC as OUT is a build in
    /// place, `InPlaceSite`.)
    static func checkLayout(source: String, output: String) throws(BuildError) {
        guard FileStatus.at(source) != nil else { return }
        let source = PathContainment.canonical(source)
        let output = PathContainment.canonical(output)
        if source == output { return }
        if PathContainment.relativePath(ofCanonical: source, inside: output) != nil {
            throw .sourceInsideOutput(source: source, output: output)
        }
    }

    /// Masters that are links to files inside OUT fail: a variant could be written over them.
    static func separateLinksIntoOutput(_ sources: [SourceFile], output: String) -> ([SourceFile], [FileProblem]) {
        let root = PathContainment.canonical(output)
        var failures: [FileProblem] = []
        let outside = sources.filter { source in
            let target = PathContainment.canonical(source.absolutePath)
            guard target != root, PathContainment.relativePath(ofCanonical: target, inside: root) != nil else { return true }
            failures.append(FileProblem(file: source.relativePath, reason: "is a link to \(target), inside the output folder, where a variant could be written over it; keep masters outside --out"))
            return false
        }
        return (outside, failures)
    }

    /// Masters whose outputs would overwrite each other's (`logo.png` and `logo@2x.png`,
    /// `hero.jpg` and `hero.webp` with `--formats webp`, or `card-480w.jpg` beside a fluid
    /// `card.jpg`) fail, each naming the other.
    static func separateCollisions(_ sources: [SourceFile], extraFormats: [ImageFormat], plan: PlanSettings) -> ([SourceFile], [FileProblem]) {
        let fluidStems = Set(sources.filter { plan.widthRequest(for: $0.name, at: $0.relativePath) != nil }
            .map { $0.name.directory + "/" + $0.name.stem })
        var groups: [String: [SourceFile]] = [:]
        for source in sources {
            var key = source.name.directory + "/" + source.name.stem
            // `card-480w` is one of a fluid `card`'s file names.
            if let stem = source.name.widthCopyStem, fluidStems.contains(source.name.directory + "/" + stem) {
                key = source.name.directory + "/" + stem
            }
            groups[key, default: []].append(source)
        }
        var clashing = Set<String>()
        var failures: [FileProblem] = []
        for group in groups.values where group.count > 1 {
            for (i, a) in group.enumerated() {
                for b in group[(i + 1)...] {
                    let aFormats = Set([a.name.format] + extraFormats)
                    let bFormats = Set([b.name.format] + extraFormats)
                    guard !aFormats.isDisjoint(with: bFormats) else { continue }
                    // A file both would write: a width-named master's own (`card-480w.jpg` is one of
                    // `card.jpg`'s width copies), else the 1x file in a format both write.
                    let named = a.name.stem.count > b.name.stem.count ? a : b
                    let common = aFormats.intersection(bFormats)
                    let format = common.contains(named.name.format) ? named.name.format : common.min() ?? named.name.format
                    let shared = named.name.variantPath(density: Density(1), format: format)
                    for (one, other) in [(a, b), (b, a)] where !clashing.contains(one.relativePath) {
                        clashing.insert(one.relativePath)
                        failures.append(FileProblem(file: one.relativePath, reason: "would write the same files as \(other.relativePath) (such as \(shared)); rename or remove one of them"))
                    }
                }
            }
        }
        return (sources.filter { !clashing.contains($0.relativePath) }, failures)
    }
}

/// A manifest entry whose path leaves the output folder.
struct ManifestPathError: Error, CustomStringConvertible {
    let path: String
    let source: String

    var description: String {
        "lists \(path.debugDescription) (for \(source.debugDescription)), which is not a path inside the output folder: dppx writes only relative paths without '..', so the file was edited by hand or by someone else; nothing it lists is removed"
    }
}
