#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path reaches and which version of it, from one `stat`: equal identities mean
/// the same bytes (a build replaces files by rename, which gives a new inode; an editor that
/// rewrites in place changes the size or the modification time).
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let isFolder: Bool
    let isRegularFile: Bool

    /// The file `path` reaches, links followed; nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    /// The open file `descriptor` refers to.
    init?(descriptor: Int32) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        self.init(info)
    }

    private init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        #if canImport(Darwin)
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
    }
}
