import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An exclusive lock on an output folder (`OUT/.dppx.lock`, `flock`), so two builds into the
/// same folder never interleave their writes. The kernel drops it if the process dies.
final class BuildLock {
    static let fileName = ".dppx.lock"
    private let descriptor: Int32

    /// Takes the lock or throws `.locked` naming the process that holds it.
    init(output: String) throws(BuildError) {
        let path = output + "/" + Self.fileName
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .file(FileError(path: path, operation: .lock, errno: errno)) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? AtomicFile.read(path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            close(fd)
            let pid = holder.trimmingCharacters(in: .whitespacesAndNewlines)
            throw .locked(output: output, holder: pid.isEmpty ? "another process" : "pid \(pid)")
        }
        ftruncate(fd, 0)
        let pid = "\(getpid())\n"
        _ = pid.withCString { write(fd, $0, strlen($0)) }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
