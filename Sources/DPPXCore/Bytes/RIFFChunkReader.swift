/// The chunks of a RIFF file (a WebP) in file order: the one walk of RIFF chunks, used to drop
/// an encoder's metadata and to count an animation's frames.
///
/// Chunks are read to the end of the bytes, whatever size the RIFF header declares (a caller
/// that needs the two to agree compares them: `declaredSize`). The bytes ending just ends the
/// walk. It borrows the bytes: use it only inside the `withUnsafeBytes` call that lent them.
public struct RIFFChunkReader {
    /// The size the RIFF header declares: the bytes after its first eight.
    public let declaredSize: Int
    /// The form (`WEBP`).
    public let formType: FourCC

    private let reader: ByteReader
    /// Where the next chunk starts.
    public private(set) var offset = 12

    /// Nil unless the bytes start with a RIFF header: `RIFF`, a size and a form type.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        reader = ByteReader(bytes, order: .littleEndian)
        guard reader.fourCC(at: 0) == "RIFF", let size = reader.uint32(at: 4), let form = reader.fourCC(at: 8) else { return nil }
        declaredSize = Int(size)
        formType = form
    }

    /// The next chunk; nil where the bytes end before a whole name and size.
    public mutating func next() -> RIFFChunk? {
        guard let id = reader.fourCC(at: offset), let size = reader.uint32(at: offset + 4) else { return nil }
        let chunk = RIFFChunk(id: id, start: offset, payload: (offset + 8)..<(offset + 8 + Int(size)))
        offset = chunk.end
        return chunk
    }
}

extension RIFFChunkReader {
    /// The frames of a WebP: its ANMF chunks, 1 for a still image. Nil when the bytes are
    /// not a RIFF WebP.
    public static func webpFrameCount(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard var chunks = RIFFChunkReader(bytes), chunks.formType == "WEBP" else { return nil }
        var frames = 0
        while let chunk = chunks.next() {
            if chunk.id == "ANMF" { frames += 1 }
        }
        return max(frames, 1)
    }
}
