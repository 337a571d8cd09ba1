/// The segments of a JPEG in file order, from SOI's successor to EOI, each scan's entropy-coded
/// data stepped over: the one walk of JPEG markers, used to insert EXIF density, to find the
/// frame header and to count scans.
///
/// Fill bytes (`0xFF` repeated before a marker) are allowed, as the standard allows them. Bytes
/// that are not a marker where one must be are an error, never a guess; the bytes ending (a
/// file's first bytes only, or a truncated file) just end the walk. It borrows the bytes: use
/// it only inside the `withUnsafeBytes` call that lent them.
public struct JPEGSegmentReader {
    private let reader: ByteReader
    /// Where the next segment starts.
    public private(set) var offset = 2
    private var ended = false

    /// Nil unless the bytes start like a JPEG: SOI, then the `0xFF` of a marker.
    public init?(_ bytes: UnsafeRawBufferPointer) {
        reader = ByteReader(bytes, order: .bigEndian)
        guard reader.matches([0xFF, JPEGMarker.startOfImage.rawValue, 0xFF], at: 0) else { return nil }
    }

    /// The next segment; nil after EOI or where the bytes end before a whole marker and length.
    public mutating func next() throws(ByteFormatError) -> JPEGSegment? {
        guard !ended, let first = reader.uint8(at: offset) else { return nil }
        let start = offset
        guard first == 0xFF else { throw damage(at: start, "expected a marker (0xFF), found 0x\(String(first, radix: 16, uppercase: true))") }
        var index = start
        while reader.uint8(at: index + 1) == 0xFF { index += 1 }  // fill bytes
        guard let code = reader.uint8(at: index + 1) else { return nil }
        let marker = JPEGMarker(rawValue: code)
        guard code != 0 else { throw damage(at: index, "0xFF00 outside entropy-coded data") }
        if marker.standsAlone {
            offset = index + 2
            ended = marker == .endOfImage
            return JPEGSegment(marker: marker, start: start, payload: offset..<offset, end: offset)
        }
        guard let length = reader.uint16(at: index + 2) else { return nil }
        guard length >= 2 else { throw damage(at: index + 2, "a segment length of \(length), under the 2 bytes of the length itself") }
        let payload = (index + 4)..<(index + 2 + Int(length))
        offset = marker == .startOfScan ? entropyCodedDataEnd(from: payload.upperBound) : payload.upperBound
        return JPEGSegment(marker: marker, start: start, payload: payload, end: offset)
    }

    /// Where a scan's entropy-coded data ends: at the next `0xFF` that is neither a stuffed
    /// `0xFF00` nor a restart marker, or at the end of the bytes.
    private func entropyCodedDataEnd(from start: Int) -> Int {
        guard start < reader.count else { return start }
        var index = start
        while index + 1 < reader.count {
            if reader.bytes[index] == 0xFF {
                let next = reader.bytes[index + 1]
                if next != 0, !JPEGMarker(rawValue: next).isRestart { return index }
            }
            index += 1
        }
        return reader.count
    }

    private func damage(at offset: Int, _ problem: String) -> ByteFormatError {
        ByteFormatError(format: "JPEG", offset: offset, problem: problem)
    }
}

extension JPEGSegmentReader {
    /// The scans (SOS segments) of the JPEG in `bytes`, counting stopped just past `limit`:
    /// a progressive JPEG of thousands of scans makes a decoder go over the whole image once
    /// per scan. A damaged marker structure ends the count early (the decoder reports it).
    public static func scanCount(in bytes: UnsafeRawBufferPointer, stoppingAfter limit: Int) -> Int {
        guard var segments = JPEGSegmentReader(bytes) else { return 0 }
        var scans = 0
        while scans <= limit, let segment = try? segments.next() {
            if segment.marker == .startOfScan { scans += 1 }
        }
        return scans
    }

    /// The marker of the first start of frame, before any scan; nil when there is none or the
    /// markers before it cannot be read.
    public static func frameMarker(in bytes: UnsafeRawBufferPointer) -> JPEGMarker? {
        guard var segments = JPEGSegmentReader(bytes) else { return nil }
        while let segment = try? segments.next() {
            if segment.marker.isStartOfFrame { return segment.marker }
            if segment.marker == .startOfScan || segment.marker == .endOfImage { return nil }
        }
        return nil
    }
}
