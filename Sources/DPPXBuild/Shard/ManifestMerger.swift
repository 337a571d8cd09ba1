import DPPXCore
import DPPXFiles
import Foundation

/// `dppx merge`: N partial manifests of one sharded build become OUT's `dppx-manifest.json`,
/// byte for byte the manifest one whole build of the same masters writes.
///
/// Nothing is written unless the parts make exactly one build: every shard once, one shard
/// count, one dppx version, one set of settings, one set of masters, every master in its own
/// shard's slice and in one shard only, and every file they list present in OUT. Then the
/// files a previous manifest in OUT listed that no shard lists any more are removed (as a whole
/// build removes a deleted master's files), and the partial manifests inside OUT, now merged,
/// are removed too: OUT holds what one whole build leaves.
public enum ManifestMerger {
    /// Merges the partial manifests of `parts` (files, or folders holding them) into `output`.
    public static func merge(parts: [String], into output: String) throws(MergeError) -> MergeReport {
        let start = Date()
        guard FileStatus.at(output)?.isFolder == true else {
            throw .noOutput(output)
        }
        let lock: BuildLock
        do { lock = try BuildLock(output: output) } catch { throw .build(error) }
        defer { withExtendedLifetime(lock) {} }
        let folder = OutputFolder(root: output)

        let partials = try check(try read(try locate(parts)))
        var images: [Manifest.Image] = []
        var report = MergeReport(manifest: Manifest(images: []))
        for (path, partial) in partials {
            for image in partial.images {
                for variant in image.variants where !OutputFolder.isInside(variant.path) {
                    throw .badPath(path: variant.path, partial: path)
                }
            }
            images += partial.images
            let variants = partial.images.flatMap(\.variants)
            report.shards.append(.init(shard: partial.shard.index, of: partial.shard.count, file: path,
                                       masters: partial.masters.count, images: partial.images.count,
                                       files: variants.count, bytes: variants.reduce(0) { $0 + $1.bytes }))
        }
        let manifest = Manifest(images: images)
        let absent = manifest.images.flatMap(\.variants).filter { !folder.holds($0.path, bytes: $0.bytes) }.map { folder.path($0.path) }
        if !absent.isEmpty { throw .filesMissing(paths: Array(absent.prefix(3)), total: absent.count, output: output) }

        // What a whole build would remove: the files of masters no shard has any more.
        let manifestPath = folder.path(Manifest.fileName)
        if let bytes = try? AtomicFile.read(manifestPath) {
            do {
                let previous = try Manifest.decode(bytes)
                try BuildSession.checkPaths(of: previous)
                let (removed, kept) = BuildAssembly.removeOrphans(previous: previous, current: manifest, in: folder)
                report.removed = removed
                report.warnings += kept
            } catch {
                report.warnings.append(FileProblem(file: manifestPath, reason: "\(error); the files it lists are left in place"))
            }
        }
        do { try folder.writeIfChanged(manifest.encoded(), to: Manifest.fileName) } catch { throw .build(.file(error)) }
        let root = PathContainment.canonical(output)
        for (path, _) in partials where PathContainment.canonical((path as NSString).deletingLastPathComponent) == root {
            try? AtomicFile.remove(path)
        }
        // The shards are done: what a killed one left half-written can go.
        folder.removeStaleTemporaries()
        report.manifest = manifest
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// The partial manifest files `parts` name, each once (by resolved path), in the order given.
    static func locate(_ parts: [String]) throws(MergeError) -> [String] {
        var files: [String] = []
        var seen = Set<String>()
        for part in parts {
            guard let status = FileStatus.at(part) else { throw .noSuchPart(part) }
            var found = [part]
            if status.isFolder {
                let folder = part.hasSuffix("/") ? String(part.dropLast()) : part
                found = PartialManifest.names(inFolder: part).map { folder + "/" + $0 }
                if found.isEmpty { throw .noPartials(folder: part) }
            }
            for file in found where seen.insert(PathContainment.canonical(file)).inserted { files.append(file) }
        }
        return files
    }

    static func read(_ files: [String]) throws(MergeError) -> [(String, PartialManifest)] {
        var partials: [(String, PartialManifest)] = []
        for file in files {
            let bytes: [UInt8]
            do { bytes = try AtomicFile.read(file) } catch { throw .unreadable(path: file, reason: error.description) }
            do { partials.append((file, try PartialManifest.decode(bytes))) } catch {
                throw .unreadable(path: file, reason: error.description)
            }
        }
        return partials
    }

    /// The partial manifests, sorted by shard, when they make exactly one build.
    static func check(_ partials: [(String, PartialManifest)]) throws(MergeError) -> [(String, PartialManifest)] {
        guard let (firstPath, first) = partials.first else { throw .missing([], given: 0) }
        var byShard: [Int: String] = [:]
        for (path, partial) in partials {
            guard partial.shard.count == first.shard.count else {
                throw .mixedCounts(first: firstPath, firstShard: first.shard, other: path, otherShard: partial.shard)
            }
            if let other = byShard[partial.shard.index] { throw .duplicate(partial.shard, first: other, second: path) }
            byShard[partial.shard.index] = path
        }
        for (path, partial) in partials {
            guard partial.dppx == first.dppx else {
                throw .differentVersions(first: firstPath, firstVersion: first.dppx, other: path, otherVersion: partial.dppx)
            }
            guard partial.settings == first.settings else { throw .differentSettings(first: firstPath, other: path) }
            guard partial.sources == first.sources, partial.sourceCount == first.sourceCount else {
                throw .differentSources(first: firstPath, firstCount: first.sourceCount, other: path, otherCount: partial.sourceCount)
            }
        }
        let missing = (1...first.shard.count).filter { byShard[$0] == nil }.compactMap { Shard(index: $0, of: first.shard.count) }
        if !missing.isEmpty { throw .missing(missing, given: partials.count) }
        var claims: [String: [(String, Shard)]] = [:]
        for (path, partial) in partials {
            for master in Set(partial.masters + partial.images.map(\.source)) { claims[master, default: []].append((path, partial.shard)) }
        }
        for (master, claimants) in claims.sorted(by: { $0.key < $1.key }) {
            if claimants.count > 1 { throw .claimedTwice(master: master, first: claimants[0].0, second: claimants[1].0) }
            let (path, shard) = claimants[0]
            guard shard.contains(master) else {
                let owner = Shard(index: Shard.index(of: master, count: shard.count), of: shard.count) ?? shard
                throw .outsideSlice(master: master, path: path, claimedBy: shard, belongsTo: owner)
            }
        }
        return partials.sorted { $0.1.shard.index < $1.1.shard.index }
    }
}
