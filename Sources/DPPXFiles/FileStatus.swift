import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one `stat` says about a file: its kind, size, identity (device and inode) and
/// modification time. The one place that reads `stat` and knows the modification time's two
/// field names (`st_mtim` on Linux, `st_mtimespec` on macOS).
public struct FileStatus: Hashable, Sendable {
    /// What the path names.
    public enum Kind: Hashable, Sendable {
        case regularFile, folder, symbolicLink, namedPipe, characterDevice, blockDevice, socket, other

        /// What it is, for a message saying why it cannot be read as a file ("a named pipe
        /// (FIFO)", "a character device such as /dev/zero").
        public var spelled: String {
            switch self {
            case .regularFile: "a regular file"
            case .folder: "a folder"
            case .symbolicLink: "a symbolic link"
            case .namedPipe: "a named pipe (FIFO)"
            case .characterDevice: "a character device (such as /dev/zero)"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .other: "not a regular file"
            }
        }
    }

    public let kind: Kind
    /// Size in bytes.
    public let size: Int
    public let device: UInt64
    public let inode: UInt64
    /// Modification time: whole seconds since 1970, and the nanoseconds within that second.
    public let modifiedSeconds: Int
    public let modifiedNanoseconds: Int

    /// The modification time in nanoseconds since 1970: the cheap "changed?" check.
    public var modified: Int64 {
        Int64(modifiedSeconds) * 1_000_000_000 + Int64(modifiedNanoseconds)
    }

    public var isRegularFile: Bool { kind == .regularFile }
    public var isFolder: Bool { kind == .folder }

    /// The file at `path`: links followed (`stat`) or the link itself (`lstat`).
    public init(path: String, followingLinks: Bool = true) throws(Errno) {
        var info = stat()
        let result = followingLinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { throw Errno(rawValue: errno) }
        self.init(info)
    }

    /// What `path` reaches, links followed; nil when nothing is there (or it cannot be looked
    /// at): "does it exist", "is it a folder".
    public static func at(_ path: String) -> FileStatus? {
        try? FileStatus(path: path)
    }

    /// Whether `path` reaches a regular file (links followed) this process may run.
    public static func isExecutableFile(_ path: String) -> Bool {
        at(path)?.isRegularFile == true && access(path, X_OK) == 0
    }

    /// The open file `descriptor` refers to (`fstat`).
    public init(descriptor: FileDescriptor) throws(Errno) {
        var info = stat()
        guard fstat(descriptor.rawValue, &info) == 0 else { throw Errno(rawValue: errno) }
        self.init(info)
    }

    /// The entry `name` of the open folder `folder`, a link itself rather than its target
    /// (`fstatat` with `AT_SYMLINK_NOFOLLOW`).
    public init(name: String, in folder: FileDescriptor) throws(Errno) {
        var info = stat()
        guard fstatat(folder.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { throw Errno(rawValue: errno) }
        self.init(info)
    }

    private init(_ info: stat) {
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regularFile
        case S_IFDIR: kind = .folder
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .namedPipe
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        size = Int(info.st_size)
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        #if canImport(Darwin)
        modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        modifiedSeconds = Int(info.st_mtim.tv_sec)
        modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
    }
}
