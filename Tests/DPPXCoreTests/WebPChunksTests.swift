import DPPXCore
import Testing

@Suite("WebP chunks: metadata an encoder wrote is dropped")
struct WebPChunksTests {
    /// A chunk: name, little-endian size, payload, and a pad byte when the size is odd.
    func chunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(payload.count)
        return Array(name.utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    func riff(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = Array("WEBP".utf8) + chunks.flatMap { $0 }
        let size = UInt32(body.count)
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)] + body
    }

    /// An extended header with `flags` and a 64x48 canvas.
    func vp8x(_ flags: UInt8) -> [UInt8] { chunk("VP8X", [flags, 0, 0, 0, 63, 0, 0, 47, 0, 0]) }

    @Test("EXIF, XMP and ICC chunks go, their VP8X flags are cleared, every other chunk stays as it was")
    func strips() throws {
        let animation: UInt8 = 0x02, alpha: UInt8 = 0x10
        let frames = [chunk("ANIM", [1, 2, 3, 4, 5, 6]), chunk("ANMF", Array(repeating: 7, count: 21))]
        let webp = riff([vp8x(animation | alpha | 0x20 | 0x08 | 0x04), chunk("ICCP", [1, 2, 3])] + frames
            + [chunk("EXIF", Array("Artist: someone".utf8)), chunk("XMP ", Array("<x:xmpmeta/>".utf8))])
        #expect(WebPChunks.names(webp) == ["VP8X", "ICCP", "ANIM", "ANMF", "EXIF", "XMP "])
        let stripped = try #require(WebPChunks.strippingMetadata(webp))
        #expect(stripped == riff([vp8x(animation | alpha)] + frames))
        #expect(WebPChunks.names(stripped) == ["VP8X", "ANIM", "ANMF"])
    }

    @Test("a file without metadata comes back byte for byte")
    func unchanged() {
        let simple = riff([chunk("VP8 ", Array(repeating: 9, count: 15))])
        #expect(WebPChunks.strippingMetadata(simple) == simple)
    }

    @Test("not a WebP, a wrong RIFF size, a chunk past the end, a short VP8X: nil",
          arguments: ["not riff", "riff size", "chunk past end", "short VP8X", "no chunks"])
    func refuses(_ kind: String) {
        let good = riff([vp8x(0x08), chunk("VP8 ", [1, 2, 3, 4]), chunk("EXIF", [5, 6])])
        let bytes: [UInt8]
        switch kind {
        case "not riff": bytes = Array("GIF89a, and nothing like a WebP file".utf8)
        case "riff size": bytes = good + [0, 0]
        case "chunk past end":
            var cut = riff([chunk("VP8 ", [1, 2, 3, 4])])
            cut[16] = 200
            bytes = cut
        case "short VP8X": bytes = riff([chunk("VP8X", [0, 0, 0]), chunk("VP8 ", [1, 2])])
        default: bytes = riff([])
        }
        #expect(WebPChunks.strippingMetadata(bytes) == nil)
        #expect(WebPChunks.names(bytes) == nil)
    }
}
