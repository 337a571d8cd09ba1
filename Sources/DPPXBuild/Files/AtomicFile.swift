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
        try createDirectory(directory.isEmpty ? "." : directory)
        let name = (path as NSString).lastPathComponent
        var template = Array("\(directory.isEmpty ? "." : directory)/\(temporaryPrefix)\(name.prefix(80)).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw FileError(path: path, operation: .write, errno: errno) }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        let contiguous = Array(bytes)
        var offset = 0
        while offset < contiguous.count {
            let written = contiguous.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
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
        guard rename(temporary, path) == 0 else { throw FileError(path: path, operation: .write, errno: errno) }
        ok = true
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
}

/// A file operation that failed: the file, the operation and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case read, write, remove, createDirectory = "create folder", list, lock
    }

    public let path: String
    public let operation: Operation
    public let errno: Int32
    public let detail: String?

    public init(path: String, operation: Operation, errno: Int32, detail: String? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        let reason = detail ?? String(cString: strerror(errno))
        let remedy: String
        switch errno {
        case ENOENT: remedy = operation == .read ? "; check the path" : ""
        case EACCES, EPERM, EROFS: remedy = "; check the folder's permissions or choose another"
        case ENOSPC, EDQUOT: remedy = "; free some disk space and run again"
        default: remedy = ""
        }
        return "\(path): cannot \(operation.rawValue): \(reason)\(remedy)"
    }
}
