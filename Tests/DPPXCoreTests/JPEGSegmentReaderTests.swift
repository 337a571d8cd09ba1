import DPPXCore
import Testing

@Suite("JPEG segments: one walk of the markers, scans' entropy-coded data stepped over")
struct JPEGSegmentReaderTests {
    typealias F = ByteFixtures

    /// Every segment the reader finds, or the error that ended the walk.
    static func segments(_ bytes: [UInt8]) -> (segments: [JPEGSegment], error: ByteFormatError?)? {
        bytes.withUnsafeBytes { raw -> (segments: [JPEGSegment], error: ByteFormatError?)? in
            guard var reader = JPEGSegmentReader(raw) else { return nil }
            var found: [JPEGSegment] = []
            do throws(ByteFormatError) {
                while let segment = try reader.next() { found.append(segment) }
                return (found, nil)
            } catch {
                return (found, error)
            }
        }
    }

    @Test("segments in file order with their starts and payloads; the scan ends after its data, at EOI")
    func walk() throws {
        let walked = try #require(Self.segments(F.jpeg + [1, 2, 3]))
        #expect(walked.error == nil)
        #expect(walked.segments.map(\.marker.rawValue) == [0xE0, 0xDB, 0xC0, 0xC4, 0xDA, 0xD9])
        var offset = 2
        for (segment, bytes) in zip(walked.segments, [F.app0, F.quantisation, F.frame, F.huffman]) {
            #expect(segment.start == offset)
            #expect(segment.payload == (offset + 4)..<(offset + bytes.count))
            #expect(segment.end == offset + bytes.count)
            offset += bytes.count
        }
        let scan = walked.segments[4]
        #expect(scan.start == offset)
        #expect(scan.payload.count == F.scanHeader.count - 4)
        #expect(scan.end == offset + F.scanHeader.count + F.scanData.count, "the stuffed 0xFF00 and RST0 belong to the scan")
        #expect(walked.segments[5].start == F.jpeg.count - 2)
        #expect(walked.segments[5].payload.isEmpty)
    }

    @Test("fill bytes before a marker belong to its segment; a head cut inside a segment ends the walk after it")
    func fillAndHead() throws {
        let filled = [0xFF, 0xD8] + F.app0 + [0xFF, 0xFF] + F.quantisation + F.frame
        let walked = try #require(Self.segments(filled))
        #expect(walked.segments.map(\.marker.rawValue) == [0xE0, 0xDB, 0xC0])
        #expect(walked.segments[1].start == 2 + F.app0.count)
        #expect(walked.segments[1].payload.lowerBound == 2 + F.app0.count + 2 + 4)

        let head = try #require(Self.segments(Array(F.jpeg.prefix(40))))
        #expect(head.error == nil)
        #expect(head.segments.map(\.marker.rawValue) == [0xE0, 0xDB])
        #expect(head.segments[1].end > 40, "the cut segment as its length declares it")
        #expect(try #require(Self.segments(Array(F.jpeg.prefix(23)))).segments.count == 1, "a marker without its length is not a segment")
    }

    @Test("a byte that is no marker, a length under 2, a stray 0xFF00: errors naming the offset; no SOI: not a JPEG")
    func damage() throws {
        let notMarker = try #require(Self.segments([0xFF, 0xD8] + F.app0 + [0x12, 0x34, 0x56, 0x78]))
        #expect(notMarker.segments.count == 1)
        #expect(notMarker.error?.offset == 2 + F.app0.count)
        #expect(notMarker.error?.description.contains("JPEG") == true)
        #expect(try #require(Self.segments([0xFF, 0xD8, 0xFF, 0xDB, 0, 1, 9, 9])).error?.offset == 4)
        #expect(try #require(Self.segments([0xFF, 0xD8, 0xFF, 0x00, 0, 4, 9, 9])).error != nil)
        #expect(Self.segments(Array("GIF89a".utf8)) == nil)
        #expect(Self.segments([0xFF, 0xD8, 0x12, 0x34]) == nil)
    }

    @Test("scans counted to just past the limit; the frame marker found before the first scan")
    func scansAndFrame() {
        let progressive = [0xFF, 0xD8] + F.quantisation + F.segment(0xC2, Array(F.frame[4...])) + F.huffman
            + Array(repeating: F.scanHeader + F.scanData, count: 5).flatMap { $0 } + [0xFF, 0xD9]
        progressive.withUnsafeBytes { raw in
            #expect(JPEGSegmentReader.scanCount(in: raw, stoppingAfter: 100) == 5)
            #expect(JPEGSegmentReader.scanCount(in: raw, stoppingAfter: 2) == 3)
            #expect(JPEGSegmentReader.frameMarker(in: raw)?.rawValue == 0xC2)
            #expect(JPEGSegmentReader.frameMarker(in: raw)?.isHuffmanCodedFrame == true)
        }
        let arithmetic = [0xFF, 0xD8] + F.segment(0xC9, Array(F.frame[4...])) + F.scanHeader + [0xFF, 0xD9]
        arithmetic.withUnsafeBytes { raw in
            #expect(JPEGSegmentReader.frameMarker(in: raw)?.isStartOfFrame == true)
            #expect(JPEGSegmentReader.frameMarker(in: raw)?.isHuffmanCodedFrame == false)
        }
        let scanFirst = [0xFF, 0xD8] + F.scanHeader + F.scanData + F.frame + [0xFF, 0xD9]
        scanFirst.withUnsafeBytes { raw in
            #expect(JPEGSegmentReader.frameMarker(in: raw) == nil)
            #expect(JPEGSegmentReader.scanCount(in: raw, stoppingAfter: 10) == 1)
        }
        for marker: UInt8 in [0xC4, 0xC8, 0xCC, 0xDB] { #expect(!JPEGMarker(rawValue: marker).isStartOfFrame) }
    }

    @Test("a segment written is read back; a payload over 65533 bytes cannot be one")
    func write() throws {
        let payload = Array("Exif".utf8) + [0, 0, 1, 2, 3]
        let bytes = try #require(JPEGSegment.bytes(.app1, payload: payload))
        #expect(bytes == F.segment(0xE1, payload))
        let walked = try #require(Self.segments([0xFF, 0xD8] + bytes + [0xFF, 0xD9]))
        #expect(walked.segments.first?.payload == 6..<(6 + payload.count))
        #expect(JPEGSegment.bytes(.app1, payload: Array(repeating: 0, count: 65533)) != nil)
        #expect(JPEGSegment.bytes(.app1, payload: Array(repeating: 0, count: 65534)) == nil)
    }
}
