import DPPXCore
import Testing

@Suite("RIFF chunks: one walk of a WebP's chunks, odd sizes padded; frames counted")
struct RIFFChunkReaderTests {
    typealias F = ByteFixtures

    @Test("the header's size and form, then chunks in file order with their pad bytes")
    func walk() {
        F.webp.withUnsafeBytes { raw in
            guard var reader = RIFFChunkReader(raw) else { Issue.record("a RIFF file"); return }
            #expect(reader.formType == "WEBP")
            #expect(reader.declaredSize == F.webp.count - 8)
            var chunks: [RIFFChunk] = []
            while let chunk = reader.next() { chunks.append(chunk) }
            #expect(chunks.map(\.id) == ["VP8X", "ICCP", "VP8 ", "EXIF", "XMP "])
            #expect(chunks[0].start == 12 && chunks[0].payload == 20..<30)
            #expect(chunks[1].payload.count == 3 && chunks[1].end == chunks[1].payload.upperBound + 1, "an odd size takes a pad byte")
            #expect(chunks[2].start == chunks[1].end)
            #expect(reader.offset == F.webp.count)
        }
    }

    @Test("a WebP's frames are its ANMF chunks, 1 when still; other RIFF forms and other files have none")
    func frames() {
        F.animatedWebP(frames: 7).withUnsafeBytes { #expect(RIFFChunkReader.webpFrameCount(in: $0) == 7) }
        F.webp.withUnsafeBytes { #expect(RIFFChunkReader.webpFrameCount(in: $0) == 1) }
        Array(F.animatedWebP(frames: 7).prefix(80)).withUnsafeBytes { #expect(RIFFChunkReader.webpFrameCount(in: $0) == 2, "a cut file: the frames whose headers are there") }
        F.riff([F.riffChunk("fmt ", [1, 2])], form: "WAVE").withUnsafeBytes { #expect(RIFFChunkReader.webpFrameCount(in: $0) == nil) }
        F.png.withUnsafeBytes { #expect(RIFFChunkReader(($0)) == nil) }
    }
}
