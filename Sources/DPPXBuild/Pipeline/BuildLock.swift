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
            if let holder = Self.holder(of: fd, shared: shared) {
                try? fd.close()
                throw .locked(output: locked, holder: holder)
            }
            return fd
        }
        return fd
    }

    /// Who holds the lock `fd` could not take (`pid 4711`, or `another process` where that
    /// cannot be told); nil when the holder has let go meanwhile and the lock is now taken.
    ///
    /// The holder is looked up in `/proc/locks` while it holds the lock. The kernel hands that file
    /// out a page per `read`, resuming by position, so a lock released elsewhere between two reads
    /// shifts the list and can hide the holder's line from one pass (40 passes in 3000 here, with a
    /// few hundred locks changing all the time): a pass that misses it is made again. A holder that has
    /// let go meanwhile is no conflict: the lock is tried once more.
    private static func holder(of fd: FileDescriptor, shared: Bool) -> String? {
        for attempt in 0..<holderPasses {
            if attempt > 0, (try? fd.tryLock(shared: shared)) == true { return nil }
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

    private static let locksPath = "/proc/locks"
    /// Whether `/proc/locks` exists here (Linux): elsewhere one look is enough.
    private static let locksReadable = (try? FileStatus(path: locksPath)) != nil

    /// The pid holding a `flock` on the file `fd` is open on, from one pass over Linux's
    /// `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 4711 08:01:1234 0 EOF`); nil where that is not
    /// available or the pass did not show it. An open file description lock (pid -1) names none.
    private static func holder(of fd: FileDescriptor) -> Int? {
        var locks: [UInt8] = []
        guard let info = try? FileStatus(descriptor: fd),
              (try? AtomicFile.read(locksPath, inChunksOf: 64 * 1024, { locks += $0 })) != nil else { return nil }
        // Linux's dev_t layout (sys/sysmacros.h), printed as hex major:minor.
        let dev = info.device
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~0xfff)
        let minor = (dev & 0xff) | ((dev >> 12) & ~0xff)
        for line in locks.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count > 5, fields[1] == "FLOCK" else { continue }
            let identity = fields[5].split(separator: ":")
            guard identity.count == 3, UInt64(identity[2]) == info.inode,
                  UInt64(identity[0], radix: 16) == major, UInt64(identity[1], radix: 16) == minor,
                  let pid = Int(fields[4]), pid > 0 else { continue }
            return pid
        }
        return nil
    }
}
