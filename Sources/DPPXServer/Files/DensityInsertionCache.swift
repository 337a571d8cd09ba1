import DPPXCore
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a negotiated JPEG or PNG answer gets its EXIF density: the bytes sent before the rest
/// of the variant file (`DensityInsertion`), worked out once per version of the file from its
/// first `DensityInsertion.headLength` bytes (one read, the first time that version is asked
/// for), so no request reads a file whole or rewrites it, and hot answers cost a lookup.
///
/// Keys include the file's identity, so a rebuilt variant is read again. Bounded: cleared when
/// it grows past `maxEntries`.
final class DensityInsertionCache: Sendable {
    /// The bytes to send first, and the file offset the rest of the answer starts at.
    struct Prefix: Sendable {
        let bytes: ByteBuffer
        let resumeOffset: Int
    }

    private struct Key: Hashable {
        let path: String
        let file: FileIdentity
        let format: ImageFormat
        let exif: ExifDensity
    }

    let maxEntries: Int
    private let entries = LockedValue([Key: Result<Prefix, DensityInsertionError>]())

    init(maxEntries: Int = 4096) {
        self.maxEntries = maxEntries
    }

    /// The prefix that writes `exif` into the `format` file at `path` (absolute) while it is the
    /// version `file` names. A failure says why the file cannot carry it (not a JPEG or PNG,
    /// EXIF already there); nil when the file could not be read as that version (replaced
    /// meanwhile: the next request sees the new one).
    func prefix(writing exif: ExifDensity, into format: ImageFormat, path: String, file: FileIdentity) -> Result<Prefix, DensityInsertionError>? {
        let key = Key(path: path, file: file, format: format, exif: exif)
        if let known = entries.withLock({ $0[key] }) { return known }
        guard let head = Self.head(of: path, file: file) else { return nil }
        let made: Result<Prefix, DensityInsertionError>
        do {
            let insertion = try DensityInsertion(inserting: exif, into: format, head: head)
            made = .success(Prefix(bytes: ByteBuffer(bytes: insertion.prefix), resumeOffset: insertion.resumeOffset))
        } catch {
            made = .failure(error)
        }
        entries.withLock { entries in
            if entries.count >= maxEntries { entries.removeAll(keepingCapacity: true) }
            entries[key] = made
        }
        return made
    }

    /// The first `DensityInsertion.headLength` bytes of the file at `path`, if it is still `file`.
    private static func head(of path: String, file: FileIdentity) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard FileIdentity(descriptor: descriptor) == file else { return nil }
        let wanted = min(file.size, DensityInsertion.headLength)
        guard wanted > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let count = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, wanted - filled, off_t(filled))
            }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes.prefix(filled))
    }
}
