/// One image file directory (IFD) of a TIFF or of EXIF, as `TIFFReader` finds it: every entry
/// and the next directory's offset lie inside the bytes read.
public struct TIFFDirectory: Hashable, Sendable {
    /// Where the directory starts: its entry count.
    public let offset: Int
    /// How many entries it has.
    public let entryCount: Int
    /// The size of one entry: 12 bytes, 20 in BigTIFF.
    public let entrySize: Int
    /// The next directory in the chain (the next page); 0 for the last.
    public let nextOffset: Int

    public init(offset: Int, entryCount: Int, entrySize: Int, nextOffset: Int) {
        self.offset = offset
        self.entryCount = entryCount
        self.entrySize = entrySize
        self.nextOffset = nextOffset
    }

    /// Where its entries are, in order, after the count (2 bytes, 8 in BigTIFF).
    public var entryOffsets: StrideTo<Int> {
        let first = offset + (entrySize == 20 ? 8 : 2)
        return stride(from: first, to: first + entryCount * entrySize, by: entrySize)
    }
}

/// One entry of a TIFF directory: a tag, its field type and count, and the field that holds
/// the value when it fits there (4 bytes, 8 in BigTIFF) or else the value's offset.
public struct TIFFEntry: Hashable, Sendable {
    public let tag: UInt16
    /// The TIFF field type: 3 SHORT, 4 LONG, 5 RATIONAL, 16 LONG8...
    public let type: UInt16
    public let count: UInt64
    /// Where the value or offset field starts.
    public let valueField: Int

    public init(tag: UInt16, type: UInt16, count: UInt64, valueField: Int) {
        self.tag = tag
        self.type = type
        self.count = count
        self.valueField = valueField
    }
}
