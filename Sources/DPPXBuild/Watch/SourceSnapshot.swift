import Foundation

/// What the masters under SRC look like on disk: every master's size, modification time and
/// inode, and the names the build rejects. Two snapshots that differ mean a master was changed,
/// added or removed.
///
/// It comes from the build's own walk (`SourceScanner`), so the watcher sees exactly the files
/// a build takes, with the same rules for hidden files, symbolic links and odd names.
///
/// Polling was chosen over inotify: it sees changes made through editors' rename-over saves,
/// bind mounts and network folders alike, needs no per-folder watch (no `max_user_watches`
/// limit), and costs one `stat` per master per scan.
public struct SourceSnapshot: Equatable, Sendable {
    /// A file's identity and state.
    public struct Stamp: Equatable, Sendable {
        public var size: Int64
        public var modified: Int64
        public var inode: UInt64
    }

    /// Relative path to stamp, for every master; a rejected name has an empty stamp.
    public let files: [String: Stamp]

    /// Scans `root` (a folder or one file); `excluding` (the output folder, when inside SRC) is
    /// skipped. A missing root gives an empty snapshot.
    public init(root: String, excluding: String? = nil) {
        var files: [String: Stamp] = [:]
        if let (sources, rejected) = try? SourceScanner(root: root, excluding: excluding).scan() {
            for source in sources {
                files[source.relativePath] = Stamp(size: Int64(source.byteCount), modified: source.modified, inode: source.inode)
            }
            for failure in rejected { files[failure.file] = Stamp(size: 0, modified: 0, inode: 0) }
        }
        self.files = files
    }

    /// Paths added, removed or changed between `self` (older) and `newer`, sorted.
    public func changes(to newer: SourceSnapshot) -> [String] {
        var changed = Set<String>()
        for (path, stamp) in files where newer.files[path] != stamp { changed.insert(path) }
        for path in newer.files.keys where files[path] == nil { changed.insert(path) }
        return changed.sorted()
    }
}
