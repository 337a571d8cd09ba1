/// One chunk of a RIFF file (WebP), as `RIFFChunkReader` finds it: offsets into the bytes read.
public struct RIFFChunk: Hashable, Sendable {
    /// The chunk's name (`VP8X`, `ANMF`...).
    public let id: FourCC
    /// Where the chunk starts: its name.
    public let start: Int
    /// Its payload, as long as its size field says: it may run past the bytes read.
    public let payload: Range<Int>

    public init(id: FourCC, start: Int, payload: Range<Int>) {
        self.id = id
        self.start = start
        self.payload = payload
    }

    /// Where the next chunk starts: after the payload and the pad byte an odd size takes.
    public var end: Int { payload.upperBound + (payload.count & 1) }
}
