import Foundation
import Hummingbird
import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Hummingbird's `LocalFileSystem`, confined to ROOT: a file is served only when its real path
/// (every symbolic link resolved) is inside ROOT's real path.
///
/// `FileMiddleware` refuses `..` in the decoded URL path, but it follows symbolic links, so
/// `ROOT/evil -> /etc` would serve `/etc/passwd` as `/evil/passwd`. Links that stay inside ROOT
/// (`latest.jpg -> v3.jpg`) keep working.
public struct RootedFileSystem: FileProvider {
    public typealias FileAttributes = LocalFileSystem.FileAttributes
    public typealias FileIdentifier = String

    /// ROOT with every link resolved, without a trailing slash.
    public let root: String
    private let files: LocalFileSystem

    /// `root` must exist; it is resolved once, here.
    public init(root: String) {
        let resolved = Self.realPath(root) ?? root
        self.root = resolved.count > 1 && resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        var quiet = Logger(label: "dppx.files")
        quiet.logLevel = .warning
        self.files = LocalFileSystem(rootFolder: self.root, threadPool: .singleton, logger: quiet)
    }

    public func getFileIdentifier(_ path: String) -> String? {
        files.getFileIdentifier(path)
    }

    public func getAttributes(id: String) async throws -> FileAttributes? {
        guard isInsideRoot(id) else { return nil }
        return try await files.getAttributes(id: id)
    }

    public func loadFile(id: String, context: some RequestContext) async throws -> ResponseBody {
        guard isInsideRoot(id) else { throw HTTPError(.notFound) }
        return try await files.loadFile(id: id, context: context)
    }

    public func loadFile(id: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody {
        guard isInsideRoot(id) else { throw HTTPError(.notFound) }
        return try await files.loadFile(id: id, range: range, context: context)
    }

    /// The size of the regular file at `relativePath` (no leading slash), nil when it is missing,
    /// not a regular file or outside ROOT.
    public func regularFileSize(_ relativePath: String) -> Int? {
        let path = root + "/" + relativePath
        guard isInsideRoot(path) else { return nil }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// True when `path` exists and its real path is ROOT or below it.
    public func isInsideRoot(_ path: String) -> Bool {
        guard let real = Self.realPath(path) else { return false }
        return real == root || real.hasPrefix(root == "/" ? "/" : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
