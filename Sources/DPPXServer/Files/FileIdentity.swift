import DPPXFiles
import SystemPackage

/// Which file a path reaches and which version of it, from one `stat` (`FileStatus`): equal
/// identities mean the same bytes (a build replaces files by rename, which gives a new inode; an
/// editor that rewrites in place changes the size or the modification time).
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64
    let size: Int
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let isFolder: Bool
    let isRegularFile: Bool

    /// The modification time in nanoseconds since 1970.
    var modified: Int64 { Int64(modifiedSeconds) * 1_000_000_000 + Int64(modifiedNanoseconds) }

    /// The file `path` reaches, links followed; nil when there is none.
    init?(path: String) {
        guard let status = try? FileStatus(path: path) else { return nil }
        self.init(status)
    }

    /// The open file `descriptor` refers to.
    init?(descriptor: SystemPackage.FileDescriptor) {
        guard let status = try? FileStatus(descriptor: descriptor) else { return nil }
        self.init(status)
    }

    private init(_ status: FileStatus) {
        device = status.device
        inode = status.inode
        size = status.size
        modifiedSeconds = status.modifiedSeconds
        modifiedNanoseconds = status.modifiedNanoseconds
        isFolder = status.isFolder
        isRegularFile = status.isRegularFile
    }
}
