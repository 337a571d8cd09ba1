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
        if let holder = Self.take(fd, shared ? LOCK_SH : LOCK_EX) {
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
        if let holder = Self.take(fd, LOCK_EX) {
            close(fd)
            throw .locked(output: "\(output) (\(shard.spelled))", holder: holder)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes `operation` (`LOCK_SH` or `LOCK_EX`) on `fd` without waiting: nil when it is
    /// taken, else who holds the lock (`pid 4711`, or `another process` where that cannot be told).
    ///
    /// The holder is looked up in `/proc/locks` while it holds the lock. The kernel hands that file
    /// out a page per `read`, resuming by position, so a lock released elsewhere between two reads
    /// shifts the list and can hide the holder's line from one pass (40 passes in 3000 here, with a
    /// few hundred locks changing all the time): a pass that misses it is made again. A holder that has
    /// let go meanwhile is no conflict: the lock is tried once more.
    private static func take(_ fd: Int32, _ operation: Int32) -> String? {
        for _ in 0..<holderPasses {
            if flock(fd, operation | LOCK_NB) == 0 { return nil }
            guard errno == EWOULDBLOCK else { return "another process" }
            for _ in 0..<holderPasses {
                if let pid = holder(of: fd) { return "pid \(pid)" }
                guard locksReadable else { return "another process" }
            }
        }
        return "another process"
    }

    /// How many passes over `/proc/locks` (and attempts at the lock) are made before the holder
    /// is called `another process`.
    static let holderPasses = 8

    /// Whether `/proc/locks` exists here (Linux): elsewhere one look is enough.
    private static let locksReadable = access(locksPath, R_OK) == 0
    private static let locksPath = "/proc/locks"

    /// The pid holding a `flock` on the file `fd` is open on, from one pass over Linux's
    /// `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 4711 08:01:1234 0 EOF`); nil where that is not
    /// available or the pass did not show it. An open file description lock (pid -1) names none.
    private static func holder(of fd: Int32) -> Int? {
        var info = stat()
        guard fstat(fd, &info) == 0, let locks = readLocks() else { return nil }
        // Linux's dev_t layout (sys/sysmacros.h), printed as hex major:minor.
        let dev = UInt64(truncatingIfNeeded: info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        for line in locks.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count > 5, fields[1] == "FLOCK" else { continue }
            let identity = fields[5].split(separator: ":")
            guard identity.count == 3, UInt64(identity[2]) == UInt64(truncatingIfNeeded: info.st_ino),
                  UInt64(identity[0], radix: 16) == major, UInt64(identity[1], radix: 16) == minor,
                  let pid = Int(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }

    /// `/proc/locks`, read to its end; nil when it cannot be read.
    private static func readLocks() -> [UInt8]? {
        let fd = open(locksPath, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return bytes }
            bytes += chunk[0..<count]
        }
    }
}
