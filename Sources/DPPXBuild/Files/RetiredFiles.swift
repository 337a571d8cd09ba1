import DPPXCore
import DPPXFiles
import DPPXRewrite

/// A file a build wrote and its manifest no longer lists (its master was deleted, or now
/// writes other files), with what dppx wrote there: removed only while it is still that file.
struct RetiredFile: Codable, Hashable, Sendable {
    /// Relative to OUT.
    var path: String
    var bytes: Int
    var hash: String
    /// The master it was written for.
    var source: String
}

/// Removes the files a build no longer lists, once nothing names them.
///
/// A build whose pages are rewritten after it (`BuildOptions.defersRemoval`) keeps the files
/// it dropped as retired in its cache, written before its manifest. After the pages and
/// stylesheets are rewritten, `sweep` removes each retired file that no rewritten page or
/// stylesheet names (`PageReferences`) and keeps the rest for a later run: a page the check
/// left as it was, or a run stopped between the build and the rewrite, never names a file that
/// is gone. A build without pages removes them at its end, as they become orphans.
enum RetiredFiles {
    /// What a sweep did.
    struct Sweep: Sendable {
        /// Removed, relative to OUT.
        var removed: [String] = []
        /// Retired files kept because a page names them (relative to OUT), for the next run.
        var named: [String] = []
        /// Retired files left in place for another reason (changed since dppx wrote them).
        var kept: [FileProblem] = []
    }

    /// The files `previous` lists that `current` does not, retired.
    static func orphans(previous: Manifest, current: Manifest) -> [RetiredFile] {
        let keep = Set(current.images.flatMap { $0.variants.map(\.path) })
        return previous.images.flatMap { image in
            image.variants.filter { !keep.contains($0.path) }.map {
                RetiredFile(path: $0.path, bytes: $0.bytes, hash: $0.hash, source: image.source)
            }
        }
    }

    /// `files` as one list: each path once (the latest record of it), none that `current` lists
    /// again.
    static func merged(_ files: [RetiredFile], current: Manifest) -> [RetiredFile] {
        let listed = Set(current.images.flatMap { $0.variants.map(\.path) })
        var byPath: [String: RetiredFile] = [:]
        for file in files where !listed.contains(file.path) { byPath[file.path] = file }
        return byPath.values.sorted { $0.path < $1.path }
    }

    /// Removes from `folder` each of `files` that `named` (paths relative to OUT) does not hold
    /// and that is still the file dppx wrote (`OutputFolder.remove`).
    static func remove(_ files: [RetiredFile], except named: Set<String>, in folder: OutputFolder) -> (Sweep, remaining: [RetiredFile]) {
        var sweep = Sweep()
        var remaining: [RetiredFile] = []
        for file in files {
            if named.contains(file.path) {
                sweep.named.append(file.path)
                remaining.append(file)
                continue
            }
            switch folder.remove(file.path, bytes: file.bytes, hash: file.hash) {
            case .removed: sweep.removed.append(file.path)
            case .missing, .master: break
            case .kept(let reason): sweep.kept.append(FileProblem(file: file.source, reason: reason))
            }
        }
        sweep.removed.sort()
        return (sweep, remaining)
    }

    /// After a site's build and rewrite: removes the retired files of `options`'s OUT that no
    /// page or stylesheet of `rewrite` names as it is now on disk (`root` is the site's root, the
    /// folder the pages' URLs start in), under OUT's build lock. Retired files named by a page
    /// stay in the cache for the next run. Nothing is removed when the cache cannot be read or
    /// OUT is locked by another build (that build sweeps).
    static func sweep(options: BuildOptions, manifest: Manifest, rewrite: SiteRewrite?) -> Sweep {
        let cachePath = options.cachePath
        guard let lock = try? BuildLock(output: options.outputRoot, shared: false) else { return Sweep() }
        defer { withExtendedLifetime(lock) {} }
        guard var cache = BuildCache.load(from: cachePath), !cache.retired.isEmpty else { return Sweep() }
        let named = rewrite.map { namedFiles(by: $0, output: options.outputRoot) } ?? []
        let owned = options.buildsInPlace ? Set(cache.retired.map(\.path)) : nil
        let (sweep, remaining) = remove(merged(cache.retired, current: manifest), except: named,
                                        in: OutputFolder(root: options.outputRoot, owned: owned))
        cache.retired = remaining
        try? cache.save(to: cachePath)
        return sweep
    }

    /// The files under `output` that the pages and stylesheets of `rewrite` name, as they are on
    /// disk now, relative to `output`; none when `output` is not under the site's root.
    static func namedFiles(by rewrite: SiteRewrite, output: String) -> Set<String> {
        guard let folder = PathContainment.relativePath(of: output, inside: rewrite.root) else { return [] }
        let prefix = folder.isEmpty ? "" : folder + "/"
        var named = Set<String>()
        for page in rewrite.pages {
            guard let relative = rewrite.relativePath(of: page), let kind = PageKind(path: page),
                  let bytes = try? AtomicFile.read(rewrite.target(of: page)) else { continue }
            for reference in PageReferences.references(in: bytes, at: relative, isHTML: kind == .html, baseURL: rewrite.options.baseURL)
            where reference.path.hasPrefix(prefix) {
                named.insert(String(reference.path.dropFirst(prefix.count)))
            }
        }
        return named
    }
}
