import DPPXCore
import Testing

@Suite("Bytes: one set of endian reads and writes, every read checked against the end")
struct ByteReaderTests {
    static let bytes: [UInt8] = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]

    @Test("big- and little-endian integers of 1, 2, 4 and 8 bytes")
    func reads() {
        Self.bytes.withUnsafeBytes { raw in
            let big = ByteReader(raw, order: .bigEndian)
            let little = ByteReader(raw, order: .littleEndian)
            #expect(big.uint8(at: 7) == 0x08)
            #expect(big.uint16(at: 1) == 0x0203)
            #expect(little.uint16(at: 1) == 0x0302)
            #expect(big.uint32(at: 4) == 0x0506_0708)
            #expect(little.uint32(at: 4) == 0x0807_0605)
            #expect(big.uint64(at: 0) == 0x0102_0304_0506_0708)
            #expect(little.uint64(at: 0) == 0x0807_0605_0403_0201)
            #expect(big.fourCC(at: 0) == FourCC(rawValue: 0x0102_0304))
            #expect(little.fourCC(at: 0) == FourCC(rawValue: 0x0102_0304), "a name reads the same in either order")
            #expect(big.matches([3, 4, 5], at: 2))
            #expect(!big.matches([3, 4, 5], at: 3))
        }
    }

    @Test("a read past the end, before the start or at an offset near Int.max is nil, never a trap",
          arguments: [-1, 5, 7, 8, Int.max, Int.max - 2, Int.min])
    func outOfBounds(_ offset: Int) {
        Self.bytes.withUnsafeBytes { raw in
            let reader = ByteReader(raw, order: .bigEndian)
            #expect(reader.uint64(at: offset) == nil)
            if offset < 0 || offset >= 8 { #expect(reader.uint8(at: offset) == nil) }
            if offset < 0 || offset > 6 { #expect(reader.uint16(at: offset) == nil) }
            if offset < 0 || offset > 4 { #expect(reader.uint32(at: offset) == nil) }
            #expect(!reader.matches([1], at: offset) || offset == 0)
            #expect(!reader.contains(offset, length: Int.max))
        }
        [UInt8]().withUnsafeBytes { empty in
            #expect(ByteReader(empty, order: .littleEndian).uint8(at: 0) == nil)
        }
    }

    @Test("what the writer writes, the reader reads back, in both orders")
    func roundTrip() {
        for order in [ByteOrder.bigEndian, .littleEndian] {
            var writer = ByteWriter(order: order)
            writer.write(UInt8(0xAB))
            writer.write(UInt16(0xBEEF))
            writer.write(UInt32(0xDEAD_BEEF))
            writer.write(UInt64(0x0123_4567_89AB_CDEF))
            writer.write("VP8X" as FourCC)
            writer.write([9, 9])
            #expect(writer.count == 1 + 2 + 4 + 8 + 4 + 2)
            writer.bytes.withUnsafeBytes { raw in
                let reader = ByteReader(raw, order: order)
                #expect(reader.uint8(at: 0) == 0xAB)
                #expect(reader.uint16(at: 1) == 0xBEEF)
                #expect(reader.uint32(at: 3) == 0xDEAD_BEEF)
                #expect(reader.uint64(at: 7) == 0x0123_4567_89AB_CDEF)
                #expect(reader.fourCC(at: 15) == "VP8X")
                #expect(reader.matches([9, 9], at: 19))
            }
        }
        var big = ByteWriter(order: .bigEndian)
        big.write(UInt32(0x0102_0304))
        #expect(big.bytes == [1, 2, 3, 4])
        var little = ByteWriter(order: .littleEndian)
        little.write(UInt32(0x0102_0304))
        #expect(little.bytes == [4, 3, 2, 1])
    }

    @Test("four-character codes: their bytes, their text, what PNG and RIFF accept as names")
    func fourCC() {
        let name: FourCC = "XMP "
        #expect(name.bytes == Array("XMP ".utf8))
        #expect(name.description == "XMP ")
        #expect(name.isPrintableASCII && !name.isASCIILetters)
        #expect(("eXIf" as FourCC).isASCIILetters)
        let damaged = FourCC(rawValue: 0x4100_0A7F)
        #expect(!damaged.isPrintableASCII)
        #expect(damaged.description == "A\\x0\\xA\\x7F")
    }
}
