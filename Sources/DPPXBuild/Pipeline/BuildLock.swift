import DPPXCore
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on an output folder, so two builds into the same folder (whichever folder
/// they run from) never interleave their writes. It is a `flock` on the folder itself: no lock
/// file is created, nothing is left in the published tree, and the kernel drops the lock if the
/// process dies.
final class BuildLock {
    private let descriptor: Int32

    /// Takes the lock or throws `.locked` naming the process that holds it. A `shared` lock is a
    /// shard's: the other shards of a build may hold it too (they write other masters' files),
    /// but not a whole build or a merge, whose lock is exclusive.
    init(output: String, shared: Bool = false) throws(BuildError) {
        let fd = open(output, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .file(FileError(path: output, operation: .lock, errno: errno)) }
        guard flock(fd, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            let holder = Self.holder(of: fd).map { "pid \($0)" } ?? "another process"
            close(fd)
            throw .locked(output: output, holder: holder)
        }
        descriptor = fd
    }

    /// The lock of one shard of OUT, so the same shard never runs twice at once (a retried job
    /// starting before the first is gone): a `flock` on `file`, beside the shard's cache file
    /// (never in OUT), created when missing. Throws `.locked` naming the process that holds it.
    init(shard: Shard, of output: String, file: String) throws(BuildError) {
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .file(FileError(path: file, operation: .lock, errno: errno)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.holder(of: fd).map { "pid \($0)" } ?? "another process"
            close(fd)
            throw .locked(output: "\(output) (\(shard.spelled))", holder: holder)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// The pid holding a `flock` on the file `fd` is open on, from Linux's `/proc/locks`
    /// (`1: FLOCK  ADVISORY  WRITE 4711 08:01:1234 0 EOF`); nil where that is not available.
    private static func holder(of fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, let locks = try? String(contentsOfFile: "/proc/locks", encoding: .utf8) else { return nil }
        // Linux's dev_t layout (sys/sysmacros.h), printed as hex major:minor.
        let dev = UInt64(truncatingIfNeeded: info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 5, fields[1] == "FLOCK" else { continue }
            let identity = fields[5].split(separator: ":")
            guard identity.count == 3, UInt64(identity[2]) == UInt64(truncatingIfNeeded: info.st_ino),
                  UInt64(identity[0], radix: 16) == major, UInt64(identity[1], radix: 16) == minor else { continue }
            return Int(fields[4])
        }
        return nil
    }
}
