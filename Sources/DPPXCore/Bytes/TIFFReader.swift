/// The structure of a TIFF, or of the TIFF inside EXIF: its header, its directories (IFDs) and
/// their entries, classic TIFF and BigTIFF, either byte order. The one TIFF reader: it counts a
/// TIFF's pages and reads back the EXIF dppx writes.
///
/// Every offset a file gives is checked before it is followed: a directory or value outside the
/// bytes is nil, a chain of directories that loops ends where it comes back. It borrows the
/// bytes: use it only inside the `withUnsafeBytes` call that lent them.
public struct TIFFReader {
    /// Classic TIFF's `42` or BigTIFF's `43` after the byte-order mark.
    public let isBigTIFF: Bool
    /// Where the first directory (IFD0) starts.
    public let firstDirectoryOffset: Int
    private let reader: ByteReader

    /// Nil unless the bytes start with a TIFF header: `II` or `MM`, then 42 and a 4-byte offset,
    /// or 43, 8, 0 and an 8-byte offset (BigTIFF).
    public init?(_ bytes: UnsafeRawBufferPointer) {
        let probe = ByteReader(bytes, order: .bigEndian)
        if probe.matches(Array("II".utf8), at: 0) {
            reader = probe.reading(.littleEndian)
        } else if probe.matches(Array("MM".utf8), at: 0) {
            reader = probe
        } else {
            return nil
        }
        switch reader.uint16(at: 2) {
        case 42:
            guard let first = reader.uint32(at: 4) else { return nil }
            isBigTIFF = false
            firstDirectoryOffset = Int(first)
        case 43:
            guard reader.uint16(at: 4) == 8, reader.uint16(at: 6) == 0,
                  let first = reader.uint64(at: 8).flatMap({ Int(exactly: $0) }) else { return nil }
            isBigTIFF = true
            firstDirectoryOffset = first
        default:
            return nil
        }
    }

    /// How the file stores integers.
    public var byteOrder: ByteOrder { reader.order }

    private var offsetSize: Int { isBigTIFF ? 8 : 4 }

    /// The directory at `offset`; nil when its count, entries or next offset are not all inside
    /// the bytes.
    public func directory(at offset: Int) -> TIFFDirectory? {
        let countSize = isBigTIFF ? 8 : 2
        let entrySize = isBigTIFF ? 20 : 12
        let declared = isBigTIFF ? reader.uint64(at: offset) : reader.uint16(at: offset).map(UInt64.init)
        // Bounded by the bytes before any arithmetic: a hostile count cannot overflow.
        guard let declared, reader.contains(offset, length: countSize + offsetSize) else { return nil }
        let room = (reader.count - offset - countSize - offsetSize) / entrySize
        guard declared <= UInt64(room) else { return nil }
        let entries = Int(declared)
        let nextField = offset + countSize + entries * entrySize
        guard let next = integerField(at: nextField) else { return nil }
        return TIFFDirectory(offset: offset, entryCount: entries, entrySize: entrySize, nextOffset: next)
    }

    /// The entry at `offset` (one of a directory's `entryOffsets`).
    public func entry(at offset: Int) -> TIFFEntry? {
        guard let tag = reader.uint16(at: offset), let type = reader.uint16(at: offset + 2) else { return nil }
        let count = isBigTIFF ? reader.uint64(at: offset + 4) : reader.uint32(at: offset + 4).map(UInt64.init)
        let valueField = offset + (isBigTIFF ? 12 : 8)
        guard let count, reader.contains(valueField, length: offsetSize) else { return nil }
        return TIFFEntry(tag: tag, type: type, count: count, valueField: valueField)
    }

    /// The entries of `directory`, in order.
    public func entries(of directory: TIFFDirectory) -> [TIFFEntry] {
        directory.entryOffsets.compactMap(entry(at:))
    }

    /// A single integer held in the entry itself: SHORT, LONG, LONG8 or an IFD offset of count 1.
    public func integer(_ entry: TIFFEntry) -> UInt64? {
        guard entry.count == 1 else { return nil }
        switch entry.type {
        case 3: return reader.uint16(at: entry.valueField).map(UInt64.init)
        case 4, 13: return reader.uint32(at: entry.valueField).map(UInt64.init)
        case 16, 18: return reader.uint64(at: entry.valueField)
        default: return nil
        }
    }

    /// A single RATIONAL, read where the entry points.
    public func rational(_ entry: TIFFEntry) -> (numerator: UInt32, denominator: UInt32)? {
        guard entry.type == 5, entry.count == 1, let at = integerField(at: entry.valueField), reader.contains(at, length: 8),
              let numerator = reader.uint32(at: at), let denominator = reader.uint32(at: at + 4) else { return nil }
        return (numerator, denominator)
    }

    /// The directory an entry points to (the Exif IFD of IFD0's 0x8769 entry, a SubIFD).
    public func directory(pointedToBy entry: TIFFEntry) -> TIFFDirectory? {
        guard let offset = integer(entry).flatMap({ Int(exactly: $0) }) else { return nil }
        return directory(at: offset)
    }

    /// The directories in the chain from IFD0, one per page, in order: ended by a next offset
    /// of 0, by one that comes back to a directory already read, or by one outside the bytes.
    /// Each directory read costs the same whatever its entry count says, so a hostile chain
    /// costs no more than one step per distinct offset.
    public func directoryChain() -> [TIFFDirectory] {
        var chain: [TIFFDirectory] = []
        var seen = Set<Int>()
        var next = firstDirectoryOffset
        while next != 0, seen.insert(next).inserted, let directory = directory(at: next) {
            chain.append(directory)
            next = directory.nextOffset
        }
        return chain
    }

    /// An offset field: 4 bytes, 8 in BigTIFF; nil outside the bytes or beyond `Int`.
    private func integerField(at offset: Int) -> Int? {
        let value = isBigTIFF ? reader.uint64(at: offset) : reader.uint32(at: offset).map(UInt64.init)
        return value.flatMap { Int(exactly: $0) }
    }
}
