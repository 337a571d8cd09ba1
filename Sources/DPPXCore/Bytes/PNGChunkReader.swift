/// The chunks of a PNG in file order, up to IEND: the one walk of PNG chunks, used to insert
/// EXIF density and to pass a master's pixel data through.
///
/// The reader checks the structure (a length within 2^31 - 1, as the format requires); what a
/// chunk's type or data must be is for its caller. The bytes ending (a file's first bytes only)
/// just end the walk. It borrows the bytes: use it only inside the `withUnsafeBytes` call that
/// lent them.
public struct PNGChunkReader {
    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private let reader: ByteReader
    /// Where the next chunk starts.
    public private(set) var offset = signature.count
    private var ended = false

    /// Nil unless the bytes start with the PNG signature.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        reader = ByteReader(bytes, order: .bigEndian)
        guard reader.matches(Self.signature, at: 0) else { return nil }
    }

    /// The next chunk; nil after IEND or where the bytes end before a whole length and type.
    public mutating func next() throws(ByteFormatError) -> PNGChunk? {
        guard !ended, let length = reader.uint32(at: offset), let type = reader.fourCC(at: offset + 4) else { return nil }
        guard length <= 0x7FFF_FFFF else {
            throw ByteFormatError(format: "PNG", offset: offset, problem: "a chunk length of \(length), over the format's 2^31 - 1")
        }
        let chunk = PNGChunk(type: type, start: offset, data: (offset + 8)..<(offset + 8 + Int(length)))
        offset = chunk.end
        ended = type == "IEND"
        return chunk
    }
}
