import NIOCore

/// Pages made from a file as they are served (`[rewrite]`'s srcset and image-set(), dev mode's
/// reload script): each made once per version of its file and of what makes it (`maker`: the
/// rewriter of one manifest load), on NIO's thread pool, and shared by every answer as one
/// buffer, as a small file in memory is. A page made per request and held per connection let
/// 300 clients that never read a 1 MB page grow the server by 600 MB, and each made page cost
/// the event loop a tenth of a second.
///
/// Held in a `FileCache` of its own: bounded in bytes (oldest out first), keyed by the file's
/// identity, and one make for any number of requests asking for the same version at once.
final class MadePageCache: Sendable {
    private let pages: FileCache

    init(capacity: Int = 32 << 20) {
        pages = FileCache(capacity: capacity)
    }

    /// The page made from `slice`'s file by `maker`, when it was made from this version.
    func page(of slice: FileSlice, maker: Int) -> ByteBuffer? {
        pages.contents(of: Self.key(slice.path, maker: maker), identity: slice.file)
    }

    /// Reads `slice`'s file (at most `limit` bytes) and makes its page with `make` on NIO's
    /// thread pool, unless the file changed meanwhile. Completes on `eventLoop`.
    func make(_ slice: FileSlice, maker: Int, limit: Int, on eventLoop: any EventLoop,
              _ make: @escaping @Sendable ([UInt8]) -> [UInt8]) -> EventLoopFuture<Void> {
        let key = Self.key(slice.path, maker: maker)
        let pages = self.pages
        let version = slice.file
        return pages.sharedLoad(of: key, identity: version, on: eventLoop) {
            // Only the version found inside ROOT is made: a path replaced meanwhile is not.
            guard let (read, identity) = try? RootedFileSystem.readWhole(slice.path, limit: limit), identity == version else { return nil }
            pages.store(ByteBuffer(bytes: make(Array(read.readableBytesView))), for: key, identity: version)
            return version
        }.map { _ in }
    }

    private static func key(_ path: String, maker: Int) -> String { "\(maker)\u{0}\(path)" }
}
