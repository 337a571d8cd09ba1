import DPPXCore
import Testing

@Suite("PNG chunks kept when a PNG master passes through")
struct PNGChunksTests {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A chunk with a placeholder CRC: the chunks are copied, never checked or recomputed.
    func chunk(_ type: String, _ data: [UInt8] = [1, 2, 3]) -> [UInt8] {
        let length = UInt32(data.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + Array(type.utf8) + data + [0xAA, 0xBB, 0xCC, 0xDD]
    }

    @Test("header, palette, transparency, pixel data and end are kept; everything else goes")
    func strips() throws {
        let header = chunk("IHDR", Array(repeating: 0, count: 13))
        let kept = [header, chunk("PLTE"), chunk("tRNS"), chunk("IDAT", [9, 9]), chunk("IDAT", [8]), chunk("IEND", [])]
        let png = Self.signature + header + chunk("iCCP") + chunk("tEXt", Array("Author\0me".utf8)) + chunk("PLTE")
            + chunk("tRNS") + chunk("pHYs") + chunk("IDAT", [9, 9]) + chunk("eXIf") + chunk("IDAT", [8]) + chunk("IEND", [])
        let stripped = try #require(PNGChunks.strippingMetadata(png))
        #expect(stripped == Self.signature + kept.flatMap { $0 })
    }

    @Test("not a PNG, truncated, no pixel data, or animated: nil", arguments: ["not png", "truncated", "no IDAT", "APNG", "IHDR not first"])
    func refuses(_ kind: String) {
        let header = chunk("IHDR", Array(repeating: 0, count: 13))
        let whole = Self.signature + header + chunk("IDAT") + chunk("IEND", [])
        let bytes: [UInt8]
        switch kind {
        case "not png": bytes = Array("GIF89a not a png at all, not at all".utf8)
        case "truncated": bytes = Array(whole.dropLast(6))
        case "no IDAT": bytes = Self.signature + header + chunk("IEND", [])
        case "APNG": bytes = Self.signature + header + chunk("acTL") + chunk("IDAT") + chunk("IEND", [])
        default: bytes = Self.signature + chunk("IDAT") + header + chunk("IEND", [])
        }
        #expect(PNGChunks.strippingMetadata(bytes) == nil)
    }
}
