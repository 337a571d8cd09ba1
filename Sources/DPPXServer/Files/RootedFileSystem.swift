import DPPXFiles
import NIOCore
import NIOPosix
import SystemPackage

/// The files under ROOT: confined to ROOT, and fast for the small files a site is made of.
///
/// **Confinement.** A file is served only when its real path (every symbolic link resolved) is
/// inside ROOT's real path and is not private (`PrivateFiles`: hidden files, `dppx.toml`, the
/// masters...), so `ROOT/evil -> /etc` cannot serve `/etc/passwd` as `/evil/passwd` and
/// `ROOT/envlink.txt -> .env` does not serve `.env`,
/// while links that stay inside ROOT (`latest.jpg -> v3.jpg`) keep working. The verdict is
/// remembered per path together with the file it reached (device and inode), so a request costs
/// one `stat`, and a link pointed elsewhere is checked again.
///
/// **Speed.** Files up to `cachedFileLimit` bytes are answered from memory: read once (off the
/// event loop), kept while their identity (device, inode, size, modification time) is
/// unchanged, re-read as soon as a build or an editor replaces them. Larger files, and small
/// ones until they are read, are sent from disk by the kernel (`sendfile`), never read whole.
public struct RootedFileSystem: Sendable {
    /// ROOT with every link resolved, without a trailing slash.
    public let root: String
    /// The largest file kept in memory.
    public let cachedFileLimit: Int
    /// What is never served from ROOT.
    public let privateFiles: PrivateFiles
    private let cache: FileCache

    /// `root` must exist; it is resolved once, here. At most `cacheBytes` of file contents are
    /// held in memory, in files of at most `cachedFileLimit` bytes. The files of
    /// `privateFolders` (the masters, the build cache) and `privateFiles` (`--config`, the
    /// access log), when they lie under ROOT, are never served.
    public init(root: String, privateFolders: [String] = [], privateFiles: [String] = [],
                cachedFileLimit: Int = 1 << 20, cacheBytes: Int = 32 << 20) {
        let resolved = PathContainment.resolved(root) ?? root
        self.root = resolved.count > 1 && resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        self.privateFiles = PrivateFiles(folders: privateFolders, files: privateFiles, under: self.root)
        self.cachedFileLimit = min(cachedFileLimit, cacheBytes)
        self.cache = FileCache(capacity: cacheBytes)
    }

    /// The file or folder at `relativePath` (no leading slash), nil when it is missing, outside
    /// ROOT or private.
    func entry(_ relativePath: some StringProtocol) -> FileIdentity? {
        confinedIdentity(absolutePath(relativePath))
    }

    /// `relativePath` (no leading slash) below ROOT.
    func absolutePath(_ relativePath: some StringProtocol) -> String {
        root + "/" + relativePath
    }

    /// The whole file at `relativePath` (no leading slash), the version `file` names, as an
    /// answer's body takes it: read from this file system's memory when it is there.
    func slice(_ relativePath: some StringProtocol, file: FileIdentity) -> FileSlice {
        FileSlice(path: absolutePath(relativePath), file: file, range: 0..<file.size, memory: cache, cachedFileLimit: cachedFileLimit)
    }

    /// The first `length` bytes of `slice`'s file (fewer when it is shorter), read on NIO's
    /// thread pool; nil when the file is no longer the version `slice` describes. Completes on
    /// `eventLoop`.
    func head(of slice: FileSlice, length: Int, on eventLoop: any EventLoop) -> EventLoopFuture<[UInt8]?> {
        let path = slice.path
        let file = slice.file
        return NIOThreadPool.singleton.runIfActive(eventLoop: eventLoop) { () -> [UInt8]? in
            guard let descriptor = Self.openForReading(path) else { return nil }
            defer { try? descriptor.close() }
            guard FileIdentity(descriptor: descriptor) == file else { return nil }
            return try? descriptor.read(upTo: min(file.size, length), at: 0)
        }.recover { _ in nil }
    }

    /// The size of the regular file at `relativePath` (no leading slash), nil when it is missing,
    /// not a regular file or outside ROOT.
    public func regularFileSize(_ relativePath: String) -> Int? {
        guard let identity = entry(relativePath), identity.isRegularFile else { return nil }
        return identity.size
    }

    /// True when `path` exists and its real path is ROOT or below it, and not hidden.
    public func isInsideRoot(_ path: String) -> Bool {
        confinedIdentity(path) != nil
    }

    /// The file `path` reaches, when it exists, is inside ROOT and is not hidden there.
    private func confinedIdentity(_ path: String) -> FileIdentity? {
        guard let identity = FileIdentity(path: path) else { return nil }
        if cache.isConfirmedInside(path, identity) { return identity }
        guard let real = PathContainment.resolved(path),
              let inside = PathContainment.relativePath(ofCanonical: real, inside: root) else { return nil }
        // Where a link leads counts, not only its own name (`PathGuard` checked that): private
        // means private.
        guard !privateFiles.hides(inside) else { return nil }
        cache.confirmInside(path, identity)
        return identity
    }

    /// Reads a file whole, with the identity of exactly the file read (not of a file that
    /// replaced it in between); nil identity when the file changed during the read.
    static func readWhole(_ path: String, limit: Int) throws(FileReadError) -> (ByteBuffer, FileIdentity?) {
        guard let descriptor = Self.openForReading(path) else { throw FileReadError() }
        defer { try? descriptor.close() }
        guard let identity = FileIdentity(descriptor: descriptor), identity.isRegularFile, identity.size <= limit else {
            throw FileReadError()
        }
        var buffer = ByteBufferAllocator().buffer(capacity: identity.size)
        while buffer.readableBytes < identity.size {
            let wanted = identity.size - buffer.readableBytes
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { raw in
                (try? descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: raw.prefix(wanted)))) ?? 0
            }
            if count == 0 { break }
        }
        let complete = buffer.readableBytes == identity.size && FileIdentity(descriptor: descriptor) == identity
        return (buffer, complete ? identity : nil)
    }

    /// A file that could not be read whole (gone, not a regular file, too large).
    struct FileReadError: Error {}

    /// The file at `path`, opened for reading; nil when it cannot be.
    static func openForReading(_ path: String) -> SystemPackage.FileDescriptor? {
        try? SystemPackage.FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
    }
}
