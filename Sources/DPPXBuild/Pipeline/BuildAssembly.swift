import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// What a build does once every master is done: the new manifest (a shard's partial one), the
/// orphans of the previous manifest removed, the incremental cache written, and the report.
/// A master that failed keeps what it had built before.
struct BuildAssembly {
    let session: BuildSession

    /// Writes the manifest and the cache from what became of each master (`results`).
    /// Throws when the manifest cannot be written; a cache that cannot is a warning.
    func finish(_ results: [SourceFile: BuildState.Outcome], onEvent: @Sendable (BuildEvent) -> Void) throws(BuildError) -> BuildReport {
        let options = session.options
        let previousBySource = session.previousBySource
        let folder = session.folder
        var warnings = session.previousWarnings + session.refusedLinks
        var failures = session.unbuilt
        var report = BuildReport(manifest: session.previous)
        var images: [Manifest.Image] = []
        var cache = BuildCache(settings: session.fingerprint)
        for (source, outcome) in results.sorted(by: { $0.key.relativePath < $1.key.relativePath }) {
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
                report.recompressible += result.recompressible
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
        for failure in session.unbuilt {
            if let entry = previousBySource[failure.file], !images.contains(where: { $0.source == entry.source }) {
                images.append(entry)
            }
        }
        let manifest = Manifest(images: images)
        // What this build no longer lists, and what earlier ones retired: removed now, or, when
        // pages are rewritten after the build, kept in the cache (written before the manifest,
        // so a run stopped in between still knows them) until no page names them.
        let retired = RetiredFiles.merged((session.oldCache?.retired ?? []) + RetiredFiles.orphans(previous: session.previous, current: manifest),
                                          current: manifest)
        if options.defersRemoval && session.shard == nil {
            cache.retired = retired
        } else {
            let (sweep, _) = RetiredFiles.remove(retired, except: [], in: folder)
            report.removed = sweep.removed
            warnings += sweep.kept
            for warning in sweep.kept { onEvent(.warning(warning)) }
        }
        do { try cache.save(to: session.cachePath) } catch {
            let warning = FileProblem(file: session.cachePath, reason: "\(error.description); the next build rebuilds every master (pass --cache-dir DIR to keep it elsewhere)")
            warnings.append(warning)
            onEvent(.warning(warning))
        }
        if let shard = session.shard {
            let partial = PartialManifest(shard: shard, settings: session.fingerprint,
                                          sources: ContentHash.sha256(PartialManifest.listing(session.masters.map(\.relativePath))),
                                          sourceCount: session.masters.count, masters: session.masters.map(\.relativePath).filter(session.inSlice),
                                          images: images)
            do { try folder.writeIfChanged(partial.encoded(), to: PartialManifest.fileName(for: shard)) } catch { throw .file(error) }
        } else {
            do { try folder.writeIfChanged(manifest.encoded(), to: Manifest.fileName) } catch { throw .file(error) }
            // The whole manifest now says what the shards' partial manifests said.
            for name in session.partialFiles { try? AtomicFile.remove(folder.path(name)) }
        }
        if session.oldCache == nil, options.cacheDirectory == nil, BuildCache.isInUserFolder(session.cachePath) {
            report.cacheFolderNote = "note: the build cache is in \((session.cachePath as NSString).deletingLastPathComponent), not in a .dppx-cache/ folder here: this project's folder is the site's root, and a server or a deploy would publish it; --cache-dir DIR puts it elsewhere"
        }
        // The manifest now says which files are dppx's: the journal keeps only what it does not.
        if let journal = folder.journal {
            let listed = Set(images.flatMap { $0.variants.map(\.path) })
            do { try journal.settle(listed: listed, exists: { FileStatus.at(folder.path($0)) != nil }) } catch {
                let warning = FileProblem(file: journal.path, reason: error.description)
                warnings.append(warning)
                onEvent(.warning(warning))
            }
        }
        report.manifest = manifest
        let listed = Set(manifest.images.map(\.source))
        report.masterBytes = session.buildable.filter { listed.contains($0.relativePath) }.reduce(0) { $0 + $1.byteCount }
        report.failures = failures.sorted { $0.file < $1.file }
        report.warnings = warnings
        report.skipped = session.skipped
        report.seconds = Date().timeIntervalSince(session.started)
        return report
    }

    /// Removes files the previous manifest listed that the new one does not, when they are
    /// still the files dppx wrote (see `OutputFolder.remove`). Returns the removed paths, and a
    /// warning for each orphan left in place.
    static func removeOrphans(previous: Manifest, current: Manifest, in folder: OutputFolder) -> ([String], [FileProblem]) {
        let (sweep, _) = RetiredFiles.remove(RetiredFiles.orphans(previous: previous, current: current), except: [], in: folder)
        return (sweep.removed, sweep.kept)
    }
}
