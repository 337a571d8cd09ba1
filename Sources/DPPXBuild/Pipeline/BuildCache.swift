import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// What the last build into an output folder knew about each master (size, modification time,
/// content hash, the manifest entry it recorded) and the settings it used. It lets a no-op rebuild skip reading masters; the
/// content hash still decides whether a touched master is really changed.
///
/// It is build state, not something to publish: it lives in the cache folder (`--cache-dir`,
/// by default `.dppx-cache/` in the project's folder), one file per output folder, never
/// in OUT. Without it the next build cannot trust the outputs' settings and rebuilds them all.
struct BuildCache: Codable, Sendable {
    /// The default cache folder, relative to the working folder (as `.parcel-cache` or
    /// `node_modules/.cache`: beside the project's sources, easy to ignore and to keep in CI).
    static let defaultFolderName = ".dppx-cache"
    /// Where builds before the cache folder existed kept it: removed from OUT when found.
    static let legacyFileNames = [".dppx-cache.json", ".dppx.lock"]

    struct Entry: Codable, Sendable {
        var bytes: Int
        var modified: Int64
        var hash: String
        /// SHA-256 of the manifest entry this cache's build recorded for the master under
        /// `settings` (`BuildCache.digest`). OUT's manifest may have been written since by
        /// another build (a shard, a whole build, with other settings): its entry is reused only
        /// while it is this one. Nil in caches from before dppx recorded it.
        var entry: String?
        /// The measured ladder the master was built at (`PlanSettings.measuredWidths`); nil
        /// when it was not measured. Kept per master, out of `settings`, so a page's layout
        /// changing rebuilds only the masters whose ladders it changed.
        var measured: [Int]? = nil
    }

    /// Identifies the settings (densities, formats, qualities, pipeline version) outputs were made with.
    var settings: String
    var sources: [String: Entry]
    /// Files earlier builds wrote and no longer list, not yet removed because a page may still
    /// name them (`RetiredFiles`); nil (left out of the file) when there are none.
    var retiredFiles: [RetiredFile]?

    private enum CodingKeys: String, CodingKey {
        case settings, sources
        case retiredFiles = "retired"
    }

    /// The retired files, none when the cache lists none.
    var retired: [RetiredFile] {
        get { retiredFiles ?? [] }
        set { retiredFiles = newValue.isEmpty ? nil : newValue.sorted { $0.path < $1.path } }
    }

    init(settings: String, sources: [String: Entry] = [:]) {
        self.settings = settings
        self.sources = sources
    }

    /// The cached hash when size and modification time are unchanged.
    func knownHash(for source: SourceFile) -> String? {
        guard let entry = sources[source.relativePath], entry.bytes == source.byteCount,
              entry.modified == source.modified else { return nil }
        return entry.hash
    }

    /// Whether `entry`, read from OUT, is what this cache's build recorded for `source` under
    /// `settings` and at the `measured` ladder: made with them, not by another build into the
    /// same OUT.
    func vouches(for entry: Manifest.Image, settings: String, measured: [Int]? = nil) -> Bool {
        guard self.settings == settings, let cached = sources[entry.source] else { return false }
        return cached.entry == Self.digest(entry) && cached.measured == measured
    }

    /// SHA-256 of a manifest entry's JSON (keys sorted): equal for equal entries, as read back.
    static func digest(_ entry: Manifest.Image) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return ContentHash.sha256(Array((try? encoder.encode(entry)) ?? Data()))
    }

    /// The cache file of output folder `output`: in `cacheFolder` (nil: the default), named
    /// after the output folder's resolved path, so every OUT has its own and a cache found
    /// from another working folder still belongs to the right OUT. Each shard has its own file
    /// (`...-shard-2-of-4.json`), so N shards sharing one cache folder never write one file.
    /// `published`: folders a server or a deploy publishes besides OUT (`[rewrite] root`,
    /// `[serve] root`); the default folder is never inside one of them either.
    static func path(output: String, cacheFolder: String?, shard: Shard? = nil, published: [String] = [],
                     workingFolder: String = WorkingFolder.path) -> String {
        let resolvedOutput = PathContainment.canonical(output)
        let folder = cacheFolder ?? defaultFolder(output: resolvedOutput, workingFolder: PathContainment.canonical(workingFolder),
                                                  published: published.map(PathContainment.canonical))
        let name = (resolvedOutput as NSString).lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
        let key = ContentHash.sha256(Array(resolvedOutput.utf8)).prefix(16)
        let slice = shard.map { "-shard-\($0.index)-of-\($0.count)" } ?? ""
        return folder + "/" + (name.isEmpty ? "" : name + "-") + key + slice + ".json"
    }

    /// `.dppx-cache` in the project's folder (the one holding the `dppx.toml` found from the
    /// working folder, else the working folder itself); beside OUT when that folder is inside
    /// OUT; and in the user's cache folder (`userFolder`) when it is inside a `published`
    /// folder, as in a repository that is its own site: the cache must never be published.
    private static func defaultFolder(output resolvedOutput: String, workingFolder: String, published: [String]) -> String {
        var project = workingFolder
        if let projectFile = ProjectLocator.find(from: workingFolder) {
            project = PathContainment.canonical(workingFolder + "/" + (projectFile as NSString).deletingLastPathComponent)
        }
        if PathContainment.relativePath(ofCanonical: project, inside: resolvedOutput) != nil {
            return (resolvedOutput as NSString).deletingLastPathComponent + "/" + defaultFolderName
        }
        if published.contains(where: { PathContainment.relativePath(ofCanonical: project, inside: $0) != nil }),
           let user = userFolder() {
            return user
        }
        return project + "/" + defaultFolderName
    }

    /// The user's cache folder for dppx: `$XDG_CACHE_HOME/dppx`, else `~/.cache/dppx`
    /// (`~/Library/Caches/dppx` on macOS); nil without a home folder.
    static func userFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/dppx" }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        #if canImport(Darwin)
        return home + "/Library/Caches/dppx"
        #else
        return home + "/.cache/dppx"
        #endif
    }

    /// Whether `path` (a cache file's) is in the user's cache folder rather than the project's.
    static func isInUserFolder(_ path: String) -> Bool {
        guard let user = userFolder() else { return false }
        return path.hasPrefix(user + "/")
    }

    static func load(from path: String) -> BuildCache? {
        guard let bytes = try? AtomicFile.read(path) else { return nil }
        return try? JSONDecoder().decode(BuildCache.self, from: Data(bytes))
    }

    func save(to path: String) throws(FileError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(self)) ?? Data()
        try Self.createFolder(of: path)
        try AtomicFile.writeIfChanged(Array(data), to: path)
    }

    /// Creates the folder of the cache file `path` when it is missing.
    static func createFolder(of path: String) throws(FileError) {
        let folder = (path as NSString).deletingLastPathComponent
        if FileStatus.at(folder) == nil {
            try AtomicFile.createDirectory(folder)
            // As pytest and ruff do: the folder keeps itself out of version control.
            try AtomicFile.write(Array("# Build state of dppx (incremental cache); safe to delete.\n*\n".utf8), to: folder + "/.gitignore")
        }
    }

    /// Deletes the state earlier dppx versions kept inside OUT.
    static func removeLegacyFiles(in output: String) {
        for name in legacyFileNames { try? AtomicFile.remove(output + "/" + name) }
    }
}
