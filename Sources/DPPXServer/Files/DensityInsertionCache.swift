import DPPXCore
import NIOCore

/// Where a negotiated JPEG or PNG answer gets its EXIF density: the bytes sent before the rest
/// of the variant file (`DensityInsertion`), worked out once per version of the file from its
/// first `DensityInsertion.headLength` bytes, so no request reads a file whole or rewrites it,
/// and hot answers cost a lookup.
///
/// Those bytes come from the file's copy in memory (`RootedFileSystem`); a file not in memory
/// is read on NIO's thread pool first (`read`): the whole of a small file, into the file cache,
/// or only the head of a large one.
///
/// Keys include the file's identity, so a rebuilt variant is read again. Bounded
/// (`BoundedCache`).
final class DensityInsertionCache: Sendable {
    /// The bytes to send first, and the file offset the rest of the answer starts at.
    struct Prefix: Sendable {
        let bytes: ByteBuffer
        let resumeOffset: Int
    }

    /// A prefix, or why the file cannot carry the density (not a JPEG or PNG, EXIF already there).
    typealias Outcome = Result<Prefix, DensityInsertionError>

    private struct Key: Hashable {
        let path: String
        let file: FileIdentity
        let format: ImageFormat
        let exif: ExifDensity
    }

    private let entries: BoundedCache<Key, Outcome>

    init(maxEntries: Int = 4096) {
        entries = BoundedCache(maxEntries: maxEntries)
    }

    /// The outcome of writing `exif` into `slice`'s file (whole, in `format`) while it is that
    /// version; nil when its head is neither known nor in memory: `read` it, then ask again.
    /// Never reads a file.
    func prefix(writing exif: ExifDensity, into format: ImageFormat, file slice: FileSlice) -> Outcome? {
        let key = Key(path: slice.path, file: slice.file, format: format, exif: exif)
        if let known = entries[key] { return known }
        guard let contents = slice.bytesInMemory else { return nil }
        let head = contents.getBytes(at: contents.readerIndex, length: min(contents.readableBytes, DensityInsertion.headLength)) ?? []
        return remember(Self.outcome(writing: exif, into: format, head: head), for: key)
    }

    /// Reads what `prefix` needs of `slice`'s file on NIO's thread pool: a small file whole into
    /// memory, only the head of a large one. Nothing when the file changed meanwhile. Completes
    /// on `eventLoop`.
    func read(writing exif: ExifDensity, into format: ImageFormat, file slice: FileSlice, files: RootedFileSystem,
              on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        if slice.fitsInMemory {
            return slice.load(on: eventLoop).map { _ in }
        }
        let key = Key(path: slice.path, file: slice.file, format: format, exif: exif)
        return files.head(of: slice, length: DensityInsertion.headLength, on: eventLoop).map { head in
            guard let head else { return }
            self.remember(Self.outcome(writing: exif, into: format, head: head), for: key)
        }
    }

    @discardableResult
    private func remember(_ outcome: Outcome, for key: Key) -> Outcome {
        entries.store(outcome, for: key)
        return outcome
    }

    private static func outcome(writing exif: ExifDensity, into format: ImageFormat, head: [UInt8]) -> Outcome {
        do {
            let insertion = try DensityInsertion(inserting: exif, into: format, head: head)
            return .success(Prefix(bytes: ByteBuffer(bytes: insertion.prefix), resumeOffset: insertion.resumeOffset))
        } catch {
            return .failure(error)
        }
    }
}
