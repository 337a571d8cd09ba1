import Foundation
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files under ROOT: confined to ROOT, and fast for the small files a site is made of.
///
/// **Confinement.** A file is served only when its real path (every symbolic link resolved) is
/// inside ROOT's real path, so `ROOT/evil -> /etc` cannot serve `/etc/passwd` as
/// `/evil/passwd`, while links that stay inside ROOT (`latest.jpg -> v3.jpg`) keep working.
/// The verdict is remembered per path together with the file it reached (device and inode),
/// so a request costs one `stat`, and a link pointed elsewhere is checked again.
///
/// **Speed.** Files up to `cachedFileLimit` bytes are answered from memory: read once, kept
/// while their identity (device, inode, size, modification time) is unchanged, re-read as soon
/// as a build or an editor replaces them. Larger files are streamed from disk in chunks on
/// NIO's thread pool, never read whole.
public struct RootedFileSystem: Sendable {
    /// ROOT with every link resolved, without a trailing slash.
    public let root: String
    /// The largest file kept in memory.
    public let cachedFileLimit: Int
    private let streaming = FileIO(threadPool: .singleton)
    private let cache: FileCache

    /// `root` must exist; it is resolved once, here. At most `cacheBytes` of file contents are
    /// held in memory, in files of at most `cachedFileLimit` bytes.
    public init(root: String, cachedFileLimit: Int = 1 << 20, cacheBytes: Int = 32 << 20) {
        let resolved = Self.realPath(root) ?? root
        self.root = resolved.count > 1 && resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        self.cachedFileLimit = min(cachedFileLimit, cacheBytes)
        self.cache = FileCache(capacity: cacheBytes)
    }

    /// The file or folder at `relativePath` (no leading slash), nil when it is missing or
    /// outside ROOT.
    func entry(_ relativePath: some StringProtocol) -> FileIdentity? {
        confinedIdentity(root + "/" + relativePath)
    }

    /// The body of the file `identity` describes (from `entry`), whole or `range` of it.
    func body(of relativePath: some StringProtocol, identity: FileIdentity, range: ClosedRange<Int>?,
              context: some RequestContext) async throws -> ResponseBody {
        let path = root + "/" + relativePath
        guard identity.size <= cachedFileLimit else {
            if let range { return try await streaming.loadFile(path: path, range: range, context: context) }
            return try await streaming.loadFile(path: path, context: context)
        }
        return ResponseBody(byteBuffer: Self.slice(try await contents(of: path, identity: identity), range))
    }

    /// What `body(of:identity:range:context:)` would send, when it is in memory already: no
    /// read, no waiting. Nil for a large file or one not read yet.
    func bodyInMemory(of relativePath: some StringProtocol, identity: FileIdentity, range: ClosedRange<Int>?) -> ByteBuffer? {
        guard identity.size <= cachedFileLimit,
              let buffer = cache.contents(of: root + "/" + relativePath, identity: identity) else { return nil }
        return Self.slice(buffer, range)
    }

    private static func slice(_ buffer: ByteBuffer, _ range: ClosedRange<Int>?) -> ByteBuffer {
        guard let range, buffer.readableBytes > 0 else { return buffer }
        let clamped = range.clamped(to: 0...(buffer.readableBytes - 1))
        return buffer.getSlice(at: buffer.readerIndex + clamped.lowerBound, length: clamped.count) ?? buffer
    }

    /// The size of the regular file at `relativePath` (no leading slash), nil when it is missing,
    /// not a regular file or outside ROOT.
    public func regularFileSize(_ relativePath: String) -> Int? {
        guard let identity = entry(relativePath), identity.isRegularFile else { return nil }
        return identity.size
    }

    /// True when `path` exists and its real path is ROOT or below it.
    public func isInsideRoot(_ path: String) -> Bool {
        confinedIdentity(path) != nil
    }

    /// The file `path` reaches, when it exists and is inside ROOT.
    private func confinedIdentity(_ path: String) -> FileIdentity? {
        guard let identity = FileIdentity(path: path) else { return nil }
        if cache.isConfirmedInside(path, identity) { return identity }
        guard let real = Self.realPath(path), real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else { return nil }
        cache.confirmInside(path, identity)
        return identity
    }

    /// A small file's bytes: from memory while the file is unchanged, else read (off the event
    /// loop) and kept.
    func contents(of path: String, identity: FileIdentity) async throws -> ByteBuffer {
        if let cached = cache.contents(of: path, identity: identity) { return cached }
        let limit = cachedFileLimit
        let (read, readIdentity) = try await NIOThreadPool.singleton.runIfActive {
            try Self.readWhole(path, limit: limit)
        }
        if let readIdentity { cache.store(read, for: path, identity: readIdentity) }
        // Replaced between the `stat` the headers came from and the read: those headers
        // (length, ETag) describe a file that is gone. The client asks again.
        guard readIdentity == identity else {
            throw HTTPError(.serviceUnavailable, headers: [.retryAfter: "1"], message: "the file changed while it was being read; try again")
        }
        return read
    }

    /// Reads a file whole, with the identity of exactly the file read (not of a file that
    /// replaced it in between); nil identity when the file changed during the read.
    static func readWhole(_ path: String, limit: Int) throws -> (ByteBuffer, FileIdentity?) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw HTTPError(.notFound) }
        defer { close(descriptor) }
        guard let identity = FileIdentity(descriptor: descriptor), identity.isRegularFile, identity.size <= limit else {
            throw HTTPError(.notFound)
        }
        var buffer = ByteBufferAllocator().buffer(capacity: identity.size)
        while buffer.readableBytes < identity.size {
            let wanted = identity.size - buffer.readableBytes
            let count = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: wanted) { raw in
                max(0, read(descriptor, raw.baseAddress, min(wanted, raw.count)))
            }
            if count == 0 { break }
        }
        let complete = buffer.readableBytes == identity.size && FileIdentity(descriptor: descriptor) == identity
        return (buffer, complete ? identity : nil)
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
