import DPPXCore
import DPPXFiles
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
    static let pipelineVersion = 6

    public init(options: BuildOptions) {
        self.options = options
    }

    /// Runs the build. Throws only when nothing can be built at all (missing source, locked or
    /// unwritable output); per-master failures are in the report.
    public func run(onEvent: @escaping @Sendable (BuildEvent) -> Void = { _ in }) throws(BuildError) -> BuildReport {
        let start = Date()
        let output = options.outputRoot
        do { try Vips.start() } catch { throw .file(FileError(path: "libvips", operation: .read, errno: 0, detail: error.reason)) }
        try Self.checkLayout(source: options.sourceRoot, output: output)
        let shard = options.shard
        let inSlice = { (path: String) in shard?.contains(path) ?? true }
        let (sources, rejected, allSkipped, refusedLinks) = try options.scanSources()
        // In place, the manifest lies among the masters: it is no file of the site's to report.
        let skipped = allSkipped.filter { inSlice($0) && !(options.buildsInPlace && OutputFolder.isManifest($0)) }
        do { try AtomicFile.createDirectory(output) } catch { throw .file(error) }
        let lock = try BuildLock(output: output, shared: shard != nil)
        defer { withExtendedLifetime(lock) {} }
        let outputFolder = OutputFolder(root: output)
        // Shards write OUT at once: a temporary file may be another shard's, still being written.
        if shard == nil { outputFolder.removeStaleTemporaries() }
        BuildCache.removeLegacyFiles(in: output)
        let cachePath = BuildCache.path(output: output, cacheFolder: options.cacheDirectory, shard: shard)
        var shardLock: BuildLock?
        if let shard {
            do { try BuildCache.createFolder(of: cachePath) } catch { throw .file(error) }
            shardLock = try BuildLock(shard: shard, of: output, file: cachePath + ".lock")
        }
        defer { withExtendedLifetime(shardLock) {} }

        let (previous, previousWarnings, partialFiles) = Self.previousManifest(in: outputFolder, shard: shard)
        var warnings = previousWarnings + refusedLinks.filter { inSlice($0.file) }
        // Told as found, as a master's warnings are: the report's list is not printed.
        for warning in previousWarnings { onEvent(.warning(warning)) }
        // In place, the variants beside the masters are not masters, and only they are dppx's to
        // replace or remove.
        let site = options.buildsInPlace ? InPlaceSite(previous: previous) : nil
        let masters = site?.masters(among: sources) ?? sources
        let folder = OutputFolder(root: output, owned: site?.owned)
        let previousBySource = Dictionary(previous.images.map { ($0.source, $0) }, uniquingKeysWith: { a, _ in a })
        let fingerprint = settingsFingerprint()
        let oldCache = BuildCache.load(from: cachePath)

        // Collisions are found among all masters, so every shard fails the same ones as a whole build.
        // In place every master is inside OUT, and no file dppx did not write is written over.
        let (outsideOutput, linkedIntoOutput) = options.buildsInPlace ? (masters, []) : Self.separateLinksIntoOutput(masters, output: output)
        let (allBuildable, collisions) = Self.separateCollisions(outsideOutput, extraFormats: options.extraFormats, plan: options.plan)
        let buildable = allBuildable.filter { inSlice($0.relativePath) }
        let unbuilt = (rejected + linkedIntoOutput + collisions).filter { inSlice($0.file) }
        var failures = unbuilt

        // Decide per master: reuse (hash and settings unchanged, outputs intact) or build.
        let state = BuildState()
        // Even a single master keeps every worker busy: its outputs are separate tasks.
        let jobs = max(1, options.jobs)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        Vips.threadsPerOperation = max(1, cores / jobs)
        onEvent(.started(total: buildable.count + unbuilt.count, toBuild: buildable.count))
        // Masters failed before any work (unreadable, linked into OUT, colliding) are told as they are found.
        for failure in unbuilt { onEvent(.failed(failure)) }
        for link in refusedLinks where inSlice(link.file) { onEvent(.warning(link)) }
        // Biggest first: the long jobs start early and the cores finish together.
        let order = buildable.indices.sorted { buildable[$0].byteCount > buildable[$1].byteCount }
        let worker = MasterBuilder(options: options, outputFolder: folder)
        let queue = BuildQueue(masterCount: order.count, maxOpenMasters: jobs, memoryBudget: jobs * options.memoryPerJob)
        let built = { @Sendable (source: SourceFile, hash: String, result: MasterBuilder.Result) in
            for warning in result.warnings { onEvent(.warning(warning)) }
            onEvent(.built(source: source.relativePath, variants: result.image.variants.count))
            state.record(.built(result, hash), for: source)
        }
        let failed = { @Sendable (source: SourceFile, failure: FileProblem) in
            onEvent(.failed(failure))
            state.record(.failed(failure), for: source)
        }
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let task = queue.next() {
                switch task {
                case .master(let index):
                    let source = buildable[order[index]]
                    var job: MasterJob?
                    do throws(FileProblem) {
                        let hash: String
                        if let known = oldCache?.knownHash(for: source) { hash = known } else { hash = try Self.hash(source) }
                        // Reused only when the cache vouches for the entry OUT holds (another build,
                        // a shard or a whole one, may have written it with other settings since). An
                        // entry from before placeholders existed is rebuilt to get one.
                        if let entry = previousBySource[source.relativePath], entry.sourceHash == hash,
                           oldCache?.vouches(for: entry, settings: fingerprint, measured: options.plan.measuredWidths[source.relativePath]) == true,
                           entry.placeholder != nil,
                           entry.variants.allSatisfy({ folder.holds($0.path, bytes: $0.bytes) }) {
                            state.record(.unchanged(entry, hash), for: source)
                        } else {
                            switch try worker.start(source, sourceHash: hash) {
                            case .finished(let result): built(source, hash, result)
                            case .decoded(let decoded): job = decoded
                            }
                        }
                    } catch {
                        failed(source, error)
                    }
                    queue.opened(index, job)
                case .output(let job, let index):
                    // A score may take a second thread while a core has no task (the memory budget
                    // holding the other workers back, or the build's last outputs).
                    let last = worker.encode(job, output: index, scoreThreads: { queue.hasIdleCore(cores: cores) ? 2 : 1 })
                    if last {
                        do throws(FileProblem) {
                            built(job.source, job.sourceHash, try worker.finish(job))
                        } catch {
                            failed(job.source, error)
                        }
                    }
                    queue.wrote(job, output: index, lastOfJob: last)
                }
            }
        }

        var report = BuildReport(manifest: previous)
        var images: [Manifest.Image] = []
        var cache = BuildCache(settings: fingerprint)
        for (source, outcome) in state.results.sorted(by: { $0.key.relativePath < $1.key.relativePath }) {
            switch outcome {
            case .unchanged(let entry, let hash):
                images.append(entry)
                report.unchanged.append(source.relativePath)
                cache.sources[source.relativePath] = .init(bytes: source.byteCount, modified: source.modified, hash: hash,
                                                           entry: BuildCache.digest(entry), measured: options.plan.measuredWidths[source.relativePath])
            case .built(let result, let hash):
                images.append(result.image)
                report.built.append(source.relativePath)
                report.filesWritten += result.filesWritten
                report.notSmaller += result.notSmaller
                report.underTarget += result.underTarget
                warnings += result.warnings
                cache.sources[source.relativePath] = .init(bytes: source.byteCount, modified: source.modified, hash: hash,
                                                           entry: BuildCache.digest(result.image), measured: options.plan.measuredWidths[source.relativePath])
            case .failed(let failure):
                failures.append(failure)
                // Keep what was built before: a broken edit of a master must not take the site down.
                if let entry = previousBySource[source.relativePath] { images.append(entry) }
            }
        }
        // Masters that could not even be listed keep their previous outputs too.
        for failure in unbuilt {
            if let entry = previousBySource[failure.file], !images.contains(where: { $0.source == entry.source }) {
                images.append(entry)
            }
        }
        let manifest = Manifest(images: images)
        let (removed, kept) = Self.removeOrphans(previous: previous, current: manifest, in: folder)
        report.removed = removed
        warnings += kept
        for warning in kept { onEvent(.warning(warning)) }
        if let shard {
            let partial = PartialManifest(shard: shard, settings: fingerprint,
                                          sources: ContentHash.sha256(PartialManifest.listing(masters.map(\.relativePath))),
                                          sourceCount: masters.count, masters: masters.map(\.relativePath).filter(inSlice),
                                          images: images)
            do { try folder.writeIfChanged(partial.encoded(), to: PartialManifest.fileName(for: shard)) } catch { throw .file(error) }
        } else {
            do { try folder.writeIfChanged(manifest.encoded(), to: Manifest.fileName) } catch { throw .file(error) }
            // The whole manifest now says what the shards' partial manifests said.
            for name in partialFiles { try? AtomicFile.remove(folder.path(name)) }
        }
        do { try cache.save(to: cachePath) } catch {
            let warning = FileProblem(file: cachePath, reason: "\(error.description); the next build rebuilds every master (pass --cache-dir DIR to keep it elsewhere)")
            warnings.append(warning)
            onEvent(.warning(warning))
        }
        report.manifest = manifest
        let listed = Set(manifest.images.map(\.source))
        report.masterBytes = buildable.filter { listed.contains($0.relativePath) }.reduce(0) { $0 + $1.byteCount }
        report.failures = failures.sorted { $0.file < $1.file }
        report.warnings = warnings
        report.skipped = skipped
        report.seconds = Date().timeIntervalSince(start)
        return report
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

    /// SHA-256 of a master, streamed.
    static func hash(_ source: SourceFile) throws(FileProblem) -> String {
        var hasher = ContentHash()
        do {
            try AtomicFile.read(source.absolutePath, inChunksOf: 1 << 20) { hasher.update($0) }
        } catch {
            _ = hasher.finish()
            throw FileProblem(file: source.relativePath, reason: "cannot be read: \(error.code); check its permissions")
        }
        return hasher.finish()
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

    /// Removes files the previous manifest listed that the new one does not, when they are
    /// still the files dppx wrote (see `OutputFolder.remove`). Returns the removed paths, and a
    /// warning for each orphan left in place.
    static func removeOrphans(previous: Manifest, current: Manifest, in folder: OutputFolder) -> ([String], [FileProblem]) {
        let keep = Set(current.images.flatMap { $0.variants.map(\.path) })
        var removed: [String] = []
        var kept: [FileProblem] = []
        for image in previous.images {
            for variant in image.variants where !keep.contains(variant.path) {
                switch folder.remove(variant.path, bytes: variant.bytes, hash: variant.hash) {
                case .removed: removed.append(variant.path)
                case .missing, .master: break
                case .kept(let reason): kept.append(FileProblem(file: image.source, reason: reason))
                }
            }
        }
        return (removed.sorted(), kept)
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

/// The results of one build's worker threads.
final class BuildState: @unchecked Sendable {
    enum Outcome: Sendable {
        case unchanged(Manifest.Image, String)
        case built(MasterBuilder.Result, String)
        case failed(FileProblem)
    }

    private let lock = NSLock()
    private(set) var results: [SourceFile: Outcome] = [:]

    func record(_ outcome: Outcome, for source: SourceFile) {
        lock.withLock { results[source] = outcome }
    }
}
