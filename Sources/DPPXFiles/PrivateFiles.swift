import DPPXCore
import DPPXFiles

/// What `dppx serve` never publishes from ROOT, whatever the request path or the link that
/// leads there: hidden files and folders (`PathGuard.namesHiddenFile`: `.git`, `.env`,
/// `.dppx-cache`), the project file (`dppx.toml`), shards' partial manifests
/// (`dppx-manifest.shard-2-of-4.json`) and the folder of masters when it lies under ROOT. Each
/// answers 404, as a missing file does. `RootedFileSystem` applies it to the real path of every
/// file it serves: the one place this rule lives.
public struct PrivateFiles: Sendable {
    /// Folders below ROOT whose every file is private (the masters), relative to ROOT's real
    /// path, without a trailing slash.
    public let folders: [String]

    /// `folders` as named (relative to the working folder, or absolute), kept when they lie
    /// strictly below `root` (a real path); a folder outside ROOT is not served anyway, and
    /// ROOT itself is what the user asked to publish.
    public init(folders: [String] = [], under root: String) {
        self.folders = folders.compactMap { folder in
            guard let inside = PathContainment.relativePath(ofCanonical: PathContainment.canonical(folder), inside: root),
                  !inside.isEmpty else { return nil }
            return String(inside)
        }
    }

    /// Whether the file or folder at `relative` (a decoded path below ROOT, no leading slash)
    /// is private. Names compare without case: a case-insensitive disk (macOS) opens
    /// `DPPX.TOML` as `dppx.toml`.
    public func hides(_ relative: some StringProtocol) -> Bool {
        if PathGuard.namesHiddenFile(relative) { return true }
        let path = String(relative.drop { $0 == "/" }).lowercased()
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        if name == ProjectFile.fileName || PartialManifest.shard(inFileName: name) != nil { return true }
        return folders.contains { folder in
            let folder = folder.lowercased()
            return path == folder || path.hasPrefix(folder + "/")
        }
    }
}
