import NIOCore
import NIOPosix

/// Bytes `range` of the file at `path` (absolute), as it was when `file` was read from it: the
/// writer sends them only while the file is still that version. A slice carries what reads it
/// (`RootedFileSystem.slice` makes it with the file system's memory), so an answer made of
/// slices is written with nothing but the answer: from memory when the file is kept there,
/// from disk otherwise.
struct FileSlice {
    let path: String
    let file: FileIdentity
    let range: Range<Int>
    /// Where small files' bytes are kept (`RootedFileSystem`'s).
    let memory: FileCache
    /// The largest file kept in `memory`.
    let cachedFileLimit: Int

    init(path: String, file: FileIdentity, range: Range<Int>, memory: FileCache, cachedFileLimit: Int) {
        self.path = path
        self.file = file
        self.range = range
        self.memory = memory
        self.cachedFileLimit = cachedFileLimit
    }

    /// `range` (in file offsets) of the same file.
    func part(_ range: Range<Int>) -> FileSlice {
        FileSlice(path: path, file: file, range: range, memory: memory, cachedFileLimit: cachedFileLimit)
    }

    /// The bytes when the file is in memory as the same version: no read, no waiting.
    var bytesInMemory: ByteBuffer? {
        guard file.size <= cachedFileLimit, let buffer = memory.contents(of: path, identity: file) else { return nil }
        guard range != 0..<buffer.readableBytes else { return buffer }
        return buffer.getSlice(at: buffer.readerIndex + range.lowerBound, length: range.count)
    }

    /// Whether the file is small enough to be kept in memory.
    var fitsInMemory: Bool {
        file.size <= cachedFileLimit
    }

    /// Reads the file into memory on NIO's thread pool; true when it is there now, as the same
    /// version. Nothing is read for a file above `cachedFileLimit`. Requests that ask for the
    /// same version while it is being read wait for that one read (`FileCache.sharedLoad`): a
    /// page that hundreds of clients ask for at once is read, and held, once. Completes on
    /// `eventLoop`.
    func load(on eventLoop: any EventLoop) -> EventLoopFuture<Bool> {
        guard fitsInMemory else { return eventLoop.makeSucceededFuture(false) }
        if memory.contents(of: path, identity: file) != nil { return eventLoop.makeSucceededFuture(true) }
        let (limit, path, memory, confirmed) = (cachedFileLimit, path, memory, file)
        return memory.sharedLoad(of: path, identity: confirmed, on: eventLoop) {
            // Only the version found inside ROOT is kept: a path replaced meanwhile (a link
            // pointed out of ROOT) is read but never stored, as storing it would vouch for it.
            guard let (read, identity) = try? RootedFileSystem.readWhole(path, limit: limit), let identity, identity == confirmed
            else { return nil }
            memory.store(read, for: path, identity: identity)
            return identity
        }.map { $0 == confirmed }
    }

    /// The open file for sending the slice from disk, when the file at its path is still the
    /// version it describes; nil when it changed or is gone.
    func open() -> NIOFileHandle? {
        guard let descriptor = RootedFileSystem.openForReading(path) else { return nil }
        guard FileIdentity(descriptor: descriptor) == file else {
            try? descriptor.close()
            return nil
        }
        return NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor.rawValue)
    }
}
