import DPPXCore

/// What `dppx serve` never publishes from ROOT, whatever the request path or the link that
/// leads there: hidden files and folders (`PathGuard.namesHiddenFile`: `.git`, `.env`,
/// `.dppx-cache`), the project file (`dppx.toml`), shards' partial manifests
/// (`dppx-manifest.shard-2-of-4.json`), and whatever dppx reads or writes for itself when it
/// lies under ROOT: the folder of masters, the build cache (`--cache-dir`), the templates, the
/// project file of another name (`--config`) and the access log (`--access-log`). Each answers
/// 404, as a missing file does. The one place this rule lives: the server's `RootedFileSystem`
/// applies it to the real path of every file it serves, and measuring (`SiteResponder`) to every
/// file a measured page asks for, so a page is answered exactly what `dppx serve` would answer it.
public struct PrivateFiles: Sendable {
    /// Folders below ROOT whose every file is private (the masters), relative to ROOT's real
    /// path, without a trailing slash.
    public let folders: [String]
    /// Single files below ROOT that are private (`--config`, `--access-log`), relative to
    /// ROOT's real path.
    public let files: [String]

    /// `folders` and `files` as named (relative to the working folder, or absolute; they need
    /// not exist yet), kept when they lie strictly below `root` (a real path); a path outside
    /// ROOT is not served anyway, and ROOT itself is what the user asked to publish.
    public init(folders: [String] = [], files: [String] = [], under root: String) {
        self.folders = Self.inside(root, folders)
        self.files = Self.inside(root, files)
    }

    private static func inside(_ root: String, _ paths: [String]) -> [String] {
        paths.compactMap { path in
            guard let inside = PathContainment.relativePath(ofCanonical: PathContainment.canonical(path), inside: root),
                  !inside.isEmpty else { return nil }
            return String(inside)
        }
    }

    /// The masters' folder, private when given: `source` (`--watch SRC`, `[build] source`),
    /// unless the build writes into it (`output` inside it: an in-place site, or OUT inside
    /// SRC), where the masters' folder holds what is published.
    public static func mastersFolders(source: String?, output: String?) -> [String] {
        guard let source else { return [] }
        if let output, PathContainment.isInside(output, root: source) { return [] }
        return [source]
    }

    /// Whether the file or folder at `relative` (a decoded path below ROOT, no leading slash)
    /// is private. Names compare without case: a case-insensitive disk (macOS) opens
    /// `DPPX.TOML` as `dppx.toml`.
    public func hides(_ relative: some StringProtocol) -> Bool {
        if PathGuard.namesHiddenFile(relative) { return true }
        let path = String(relative.drop { $0 == "/" }).lowercased()
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        if name == ProjectFile.fileName || PartialManifest.shard(inFileName: name) != nil { return true }
        if files.contains(where: { $0.lowercased() == path }) { return true }
        return folders.contains { folder in
            let folder = folder.lowercased()
            return path == folder || path.hasPrefix(folder + "/")
        }
    }
}
