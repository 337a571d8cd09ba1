import DPPXCore
import DPPXFiles
import Foundation
import SystemPackage

/// An exclusive lock on an output folder, so two builds into the same folder (whichever folder
/// they run from) never interleave their writes. It is a `flock` on the folder itself: no lock
/// file is created, nothing is left in the published tree, and the kernel drops the lock if the
/// process dies.
final class BuildLock {
    private let descriptor: FileDescriptor

    /// Takes the lock or throws `.locked` naming the process that holds it. A `shared` lock is a
    /// shard's: the other shards of a build may hold it too (they write other masters' files),
    /// but not a whole build or a merge, whose lock is exclusive.
    init(output: String, shared: Bool = false) throws(BuildError) {
        descriptor = try BuildLock.lock(output, options: [.directory], shared: shared, locked: output)
    }

    /// The lock of one shard of OUT, so the same shard never runs twice at once (a retried job
    /// starting before the first is gone): a `flock` on `file`, beside the shard's cache file
    /// (never in OUT), created when missing. Throws `.locked` naming the process that holds it.
    init(shard: Shard, of output: String, file: String) throws(BuildError) {
        descriptor = try BuildLock.lock(file, mode: .readWrite, options: [.create], shared: false,
                                   locked: "\(output) (\(shard.spelled))")
    }

    deinit {
        descriptor.unlock()
        try? descriptor.close()
    }

    /// Opens `path` and takes the lock on it; `.locked(output: locked, ...)` when another
    /// process holds it.
    private static func lock(_ path: String, mode: FileDescriptor.AccessMode = .readOnly, options: FileDescriptor.OpenOptions,
                             shared: Bool, locked: String) throws(BuildError) -> FileDescriptor {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(FilePath(path), mode, options: options.union(.closeOnExec), permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw .file(FileError(path: path, operation: .lock, error as? Errno ?? .ioError))
        }
        let taken: Bool
        do { taken = try fd.tryLock(shared: shared) } catch {
            try? fd.close()
            throw .file(FileError(path: path, operation: .lock, error))
        }
        guard taken else {
            let holder = Self.holder(of: fd).map { "pid \($0)" } ?? "another process"
            try? fd.close()
            throw .locked(output: locked, holder: holder)
        }
        return fd
    }

    /// The pid holding a `flock` on the file `fd` is open on, from Linux's `/proc/locks`
    /// (`1: FLOCK  ADVISORY  WRITE 4711 08:01:1234 0 EOF`); nil where that is not available.
    private static func holder(of fd: FileDescriptor) -> Int? {
        guard let info = try? FileStatus(descriptor: fd), let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        // Linux's dev_t layout (sys/sysmacros.h), printed as hex major:minor.
        let dev = info.device
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 5, fields[1] == "FLOCK" else { continue }
            let identity = fields[5].split(separator: ":")
            guard identity.count == 3, UInt64(identity[2]) == info.inode,
                  UInt64(identity[0], radix: 16) == major, UInt64(identity[1], radix: 16) == minor else { continue }
            return Int(fields[4])
        }
        return nil
    }
}
