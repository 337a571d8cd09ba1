import DPPXCore
import Testing

@Suite("PNG chunks: one walk of the chunks, lengths checked; chunks written with their CRC")
struct PNGChunkReaderTests {
    typealias F = ByteFixtures

    static func chunks(_ bytes: [UInt8]) -> (chunks: [PNGChunk], error: ByteFormatError?)? {
        bytes.withUnsafeBytes { raw -> (chunks: [PNGChunk], error: ByteFormatError?)? in
            guard var reader = PNGChunkReader(raw) else { return nil }
            var found: [PNGChunk] = []
            do throws(ByteFormatError) {
                while let chunk = try reader.next() { found.append(chunk) }
                return (found, nil)
            } catch {
                return (found, error)
            }
        }
    }

    @Test("chunks in file order up to IEND, with their starts and data; bytes after IEND are not read")
    func walk() throws {
        let walked = try #require(Self.chunks(F.png + [0, 0, 0, 0, 0x41, 0x41, 0x41, 0x41]))
        #expect(walked.error == nil)
        #expect(walked.chunks.map(\.type) == ["IHDR", "sRGB", "IDAT", "IEND"])
        #expect(walked.chunks[0].start == 8)
        #expect(walked.chunks[0].data == 16..<29)
        #expect(walked.chunks[1].start == walked.chunks[0].end)
        #expect(walked.chunks[3].end == F.png.count)
    }

    @Test("a head cut inside a chunk ends the walk after it; a length over 2^31 - 1 is an error; no signature: not a PNG")
    func headAndDamage() throws {
        let head = try #require(Self.chunks(Array(F.png.prefix(42))))
        #expect(head.chunks.map(\.type) == ["IHDR", "sRGB"])
        #expect(head.chunks.last?.end ?? 0 > 42, "the cut chunk as its length declares it")
        #expect(try #require(Self.chunks(Array(F.png.prefix(40)))).chunks.count == 1, "a length without its type is not a chunk")
        let huge = try #require(Self.chunks(PNGChunkReader.signature + [0x80, 0, 0, 0] + Array("IDAT".utf8) + [1, 2, 3]))
        #expect(huge.chunks.isEmpty)
        #expect(huge.error?.offset == 8)
        #expect(Self.chunks(Array("GIF89a not a PNG".utf8)) == nil)
    }

    @Test("a chunk written carries its length, type, data and the CRC-32 a strict decoder checks")
    func write() {
        #expect(PNGChunk.bytes("IEND", data: []) == [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82])
        let chunk = PNGChunk.bytes("tEXt", data: Array("a\0b".utf8))
        #expect(Array(chunk.prefix(8)) == [0, 0, 0, 3] + Array("tEXt".utf8))
        #expect(Array(chunk.suffix(4)) == DensityInsertionTests.chunk("tEXt", Array("a\0b".utf8)).suffix(4), "the same CRC as a bit-by-bit one")
    }
}
