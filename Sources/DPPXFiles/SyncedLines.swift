import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of lines that survives a crash line by line: `append` returns once its lines are on
/// disk (`fsync` of the file, and of its folder when the file is new), so whatever a process
/// does after appending, a run after a SIGKILL or a power cut reads them. For journals: a
/// record made before the work it announces.
public enum SyncedLines {
    /// Appends `lines` (each without a line break) to `path`, creating it, and waits until
    /// they are on disk.
    public static func append(_ lines: [String], to path: String) throws(FileError) {
        guard !lines.isEmpty else { return }
        let existed = FileStatus.at(path) != nil
        let opened = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw FileError(path: path, operation: .write, errno: errno) }
        let file = FileDescriptor(rawValue: opened)
        defer { try? file.close() }
        let text = lines.map { $0 + "\n" }.joined()
        do { _ = try file.writeAll(Array(text.utf8)) } catch { throw FileError(path: path, operation: .write, Errno.of(error)) }
        guard fsync(opened) == 0 else { throw FileError(path: path, operation: .write, errno: errno) }
        if !existed { syncFolder(of: path) }
    }

    /// The lines of `path`; none when it is missing or unreadable. A last line cut short by a
    /// crash mid-write is dropped: only whole lines were appended.
    public static func read(_ path: String) -> [String] {
        guard let bytes = try? AtomicFile.read(path) else { return [] }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        lines.removeLast()  // what follows the last line break: empty, or a torn line
        return lines.filter { !$0.isEmpty }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// Makes the entry of a new file in its folder durable too.
    private static func syncFolder(of path: String) {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let opened = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard opened >= 0 else { return }
        _ = fsync(opened)
        close(opened)
    }
}
