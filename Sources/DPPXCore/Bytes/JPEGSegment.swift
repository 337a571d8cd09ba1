/// One segment of a JPEG, as `JPEGSegmentReader` finds it: offsets into the bytes read.
public struct JPEGSegment: Hashable, Sendable {
    /// What the segment is.
    public let marker: JPEGMarker
    /// Where it starts: its marker's `0xFF`, or the first of the fill bytes before it.
    public let start: Int
    /// The bytes after the length field, as long as that field says: they may run past the
    /// bytes read when those are a file's first bytes. Empty for a marker that stands alone.
    public let payload: Range<Int>
    /// Where the next segment starts: after the payload, or for a scan (SOS) after its
    /// entropy-coded data (at the end of the bytes read when no marker follows it there).
    public let end: Int

    public init(marker: JPEGMarker, start: Int, payload: Range<Int>, end: Int) {
        self.marker = marker
        self.start = start
        self.payload = payload
        self.end = end
    }

    /// The bytes of a segment: marker, big-endian length, payload. Nil when the payload is
    /// longer than a segment can hold (65533 bytes).
    public static func bytes(_ marker: JPEGMarker, payload: some Collection<UInt8>) -> [UInt8]? {
        guard payload.count <= Int(UInt16.max) - 2 else { return nil }
        var writer = ByteWriter(order: .bigEndian, capacity: 4 + payload.count)
        writer.write([0xFF, marker.rawValue])
        writer.write(UInt16(payload.count + 2))
        writer.write(payload)
        return writer.bytes
    }
}
