import DPPXCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the master images under SRC look like on disk: every image file's size, modification
/// time and inode. Two snapshots that differ mean a master was changed, added or removed.
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

    /// Relative path to stamp, for every image file (hidden files and folders skipped).
    public let files: [String: Stamp]

    /// Scans `root` (a folder or one file); `excluding` (the output folder, when inside SRC) is
    /// skipped. A missing root gives an empty snapshot.
    public init(root: String, excluding: String? = nil) {
        var files: [String: Stamp] = [:]
        var info = stat()
        guard stat(root, &info) == 0 else {
            self.files = [:]
            return
        }
        if (info.st_mode & S_IFMT) != S_IFDIR {
            files[(root as NSString).lastPathComponent] = Self.stamp(info)
            self.files = files
            return
        }
        let excluded = excluding.flatMap(Self.realPath)
        var pending = [""]
        // Folders already walked, by device and inode: a symbolic link loop is walked once.
        var visited: Set<[UInt64]> = [[UInt64(info.st_dev), UInt64(info.st_ino)]]
        while let relative = pending.popLast() {
            let folder = relative.isEmpty ? root : root + "/" + relative
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
            for name in names where !name.hasPrefix(".") {
                let path = relative.isEmpty ? name : relative + "/" + name
                let full = root + "/" + path
                guard stat(full, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    if let excluded, Self.realPath(full) == excluded { continue }
                    guard visited.insert([UInt64(info.st_dev), UInt64(info.st_ino)]).inserted else { continue }
                    pending.append(path)
                } else if (info.st_mode & S_IFMT) == S_IFREG, MasterName(relativePath: path) != nil {
                    files[path] = Self.stamp(info)
                }
            }
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

    private static func stamp(_ info: stat) -> Stamp {
        Stamp(size: Int64(info.st_size),
              modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
              inode: UInt64(info.st_ino))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
