import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that readers see the old content or the new, never a torn file: the bytes
/// go to a temporary file in the same folder, are flushed, then renamed over the target.
public enum AtomicFile {
    /// Prefix of temporary files; a build removes stale ones a killed run left behind.
    public static let temporaryPrefix = ".dppx-tmp-"

    /// Writes `bytes` to `path` atomically, creating parent folders.
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(FileError) {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        try createDirectory(folder)
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileError(path: folder, operation: .write, errno: errno) }
        defer { close(descriptor) }
        try write(Array(bytes), named: (path as NSString).lastPathComponent, in: descriptor, path: path)
    }

    /// Writes `bytes` as `name` in the open folder `folder` (`path` names it in errors): a new
    /// temporary file, never an existing one or a link, renamed over `name`. The rename
    /// replaces a link at `name` rather than writing where it points.
    static func write(_ bytes: [UInt8], named name: String, in folder: Int32, path: String) throws(FileError) {
        let temporary = "\(temporaryPrefix)\(name.prefix(80)).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let fd = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError(path: path, operation: .write, errno: errno) }
        var renamed = false
        defer { if !renamed { unlinkat(folder, temporary, 0) } }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                throw FileError(path: path, operation: .write, errno: code)
            }
            offset += written
        }
        // Readable by the web server that will serve it, like any file `cp` would make.
        fchmod(fd, 0o644)
        if fsync(fd) != 0 {
            let code = errno
            close(fd)
            throw FileError(path: path, operation: .write, errno: code)
        }
        close(fd)
        guard renameat(folder, temporary, folder, name) == 0 else { throw FileError(path: path, operation: .write, errno: errno) }
        renamed = true
    }

    /// Writes only when the content differs from what is on disk, so `make` timestamps stay
    /// meaningful. Returns whether the file was written.
    @discardableResult
    public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(FileError) -> Bool {
        if let existing = try? read(path), existing == bytes { return false }
        try write(bytes, to: path)
        return true
    }

    /// The whole file; a clear error naming it when it cannot be read.
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw FileError(path: path, operation: .read, errno: !exists ? ENOENT : isDirectory.boolValue ? EISDIR : EACCES)
        }
        return Array(data)
    }

    /// The whole regular file `name` in the open folder `folder`, never through a link; nil
    /// when it is missing, a link, or unreadable.
    static func read(named name: String, in folder: Int32) -> [UInt8]? {
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeMutableBytes { raw in systemRead(fd, raw.baseAddress! + offset, raw.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            offset += count
        }
        return bytes
    }

    /// `mkdir -p`.
    public static func createDirectory(_ path: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue { return }
            throw FileError(path: path, operation: .createDirectory, errno: (error as NSError).code == 513 ? EACCES : EIO, detail: error.localizedDescription)
        }
    }

    // The C library's calls, named apart from `Collection` and `FileHandle` methods of the same names.
    private static func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Glibc.write(fd, buffer, count)
        #endif
    }

    private static func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        Darwin.read(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.read(fd, buffer, count)
        #else
        Glibc.read(fd, buffer, count)
        #endif
    }
}
