import Foundation
import SystemPackage

/// Writes files so that readers see the old content or the new, never a torn file: the bytes
/// go to a temporary file in the same folder, are flushed, then renamed over the target
/// (`Folder.write`).
public enum AtomicFile {
    /// Prefix of temporary files; a build removes stale ones a killed run left behind.
    public static let temporaryPrefix = ".dppx-tmp-"

    /// Writes `bytes` to `path` atomically, creating parent folders.
    public static func write(_ bytes: some Collection<UInt8>, to path: String) throws(FileError) {
        let (folder, name) = try parent(of: path, creating: true)
        try folder.write(Array(bytes), named: name, reportedAs: path)
    }

    /// Writes only when the content differs from what is on disk (`Folder.writeIfChanged`), so
    /// `make` timestamps stay meaningful. Returns whether the file was written.
    @discardableResult
    public static func writeIfChanged(_ bytes: [UInt8], to path: String) throws(FileError) -> Bool {
        let (folder, name) = try parent(of: path, creating: true)
        return try folder.writeIfChanged(bytes, named: name, reportedAs: path)
    }

    /// Whether `path` is a regular file holding exactly `bytes`: what `writeIfChanged` would
    /// leave alone, and what a `--check` asks.
    public static func holds(_ bytes: [UInt8], at path: String) -> Bool {
        guard let (folder, name) = try? parent(of: path, creating: false) else { return false }
        return folder.holds(bytes, named: name)
    }

    /// The whole file; a clear error naming it when it cannot be read. Only a regular file is
    /// read: a named pipe would block and a device (a link to `/dev/zero`) never end, so either
    /// is refused with what it is.
    public static func read(_ path: String) throws(FileError) -> [UInt8] {
        if let kind = (try? FileStatus(path: path))?.kind, kind != .regularFile, kind != .folder {
            throw FileError(path: path, operation: .read, .invalidArgument,
                            detail: "it is \(kind.spelled), not a regular file; replace it with the file itself")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            let code: Errno = switch (try? FileStatus(path: path))?.isFolder {
            case nil: .noSuchFileOrDirectory
            case true?: .isDirectory
            case false?: .permissionDenied
            }
            throw FileError(path: path, operation: .read, code)
        }
        return Array(data)
    }

    /// Streams the file at `path` to `body`, `chunkSize` bytes at a time (the last chunk
    /// shorter), for files too large to hold whole.
    public static func read(_ path: String, inChunksOf chunkSize: Int, _ body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        do {
            let file = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            defer { try? file.close() }
            var buffer = [UInt8](repeating: 0, count: chunkSize)
            while true {
                let count = try buffer.withUnsafeMutableBytes { try file.read(into: $0) }
                if count == 0 { return }
                buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
            }
        } catch {
            throw FileError(path: path, operation: .read, Errno.of(error))
        }
    }

    /// Removes the file at `path` (a link itself, not its target).
    public static func remove(_ path: String) throws(FileError) {
        let (folder, name) = try parent(of: path, creating: false, for: .remove)
        do { try folder.remove(name) } catch { throw FileError(path: path, operation: .remove, error) }
    }

    /// `mkdir -p`.
    public static func createDirectory(_ path: String) throws(FileError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            if (try? FileStatus(path: path))?.isFolder == true { return }
            throw FileError(path: path, operation: .createDirectory,
                            (error as NSError).code == 513 ? .permissionDenied : .ioError, detail: error.localizedDescription)
        }
    }

    /// The open folder holding `path`, and the file's name in it.
    private static func parent(of path: String, creating: Bool, for operation: FileError.Operation = .write) throws(FileError) -> (Folder, String) {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        if creating { try createDirectory(folder) }
        return (try Folder(path: folder, for: operation), (path as NSString).lastPathComponent)
    }
}
