/// One chunk of a PNG, as `PNGChunkReader` finds it: offsets into the bytes read.
public struct PNGChunk: Hashable, Sendable {
    /// The chunk's type (`IHDR`, `IDAT`...).
    public let type: FourCC
    /// Where the chunk starts: its length field.
    public let start: Int
    /// Its data, as long as its length field says: it may run past the bytes read when those
    /// are a file's first bytes.
    public let data: Range<Int>

    public init(type: FourCC, start: Int, data: Range<Int>) {
        self.type = type
        self.start = start
        self.data = data
    }

    /// Where the next chunk starts: after the data and the CRC.
    public var end: Int { data.upperBound + 4 }

    /// The bytes of a chunk: big-endian length, type, data and the CRC-32 of type and data.
    public static func bytes(_ type: FourCC, data: some Collection<UInt8>) -> [UInt8] {
        var writer = ByteWriter(order: .bigEndian, capacity: 12 + data.count)
        writer.write(UInt32(data.count))
        writer.write(type)
        writer.write(data)
        writer.write(CRC32.checksum(writer.bytes[4...]))
        return writer.bytes
    }
}
