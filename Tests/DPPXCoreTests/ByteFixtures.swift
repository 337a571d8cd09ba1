import DPPXCore

/// Small files of each container format, built byte by byte, for the byte-format tests.
enum ByteFixtures {
    /// A JPEG segment: marker, big-endian length, payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static let app0 = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let quantisation = segment(0xDB, [0] + (0..<64).map { UInt8($0 + 1) })
    /// SOF0: 8 bits, 201 lines, 301 samples, three components.
    static let frame = segment(0xC0, [8, 0, 201, 1, 45, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
    static let huffman = segment(0xC4, [0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
    static let scanHeader = segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0])
    /// Entropy-coded data with a stuffed 0xFF00 and a restart marker in it.
    static let scanData: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56]

    /// A baseline JPEG's structure: SOI, APP0, DQT, SOF0, DHT, one scan, EOI.
    static let jpeg: [UInt8] = [0xFF, 0xD8] + app0 + quantisation + frame + huffman + scanHeader + scanData + [0xFF, 0xD9]

    /// A PNG chunk with its CRC.
    static func chunk(_ type: FourCC, _ data: [UInt8]) -> [UInt8] { PNGChunk.bytes(type, data: data) }

    static let pngHeader = chunk("IHDR", [0, 0, 1, 45, 0, 0, 0, 201, 8, 2, 0, 0, 0])
    /// A 301x201 RGB PNG's structure: signature, IHDR, sRGB, IDAT, IEND.
    static let png: [UInt8] = PNGChunkReader.signature + pngHeader + chunk("sRGB", [0]) + chunk("IDAT", [0x78, 0x9C, 1, 2, 3, 4]) + chunk("IEND", [])

    /// A RIFF chunk: name, little-endian size, payload, and a pad byte when the size is odd.
    static func riffChunk(_ name: String, _ payload: [UInt8]) -> [UInt8] {
        let size = UInt32(payload.count)
        return Array(name.utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)]
            + payload + (payload.count % 2 == 1 ? [0] : [])
    }

    static func riff(_ chunks: [[UInt8]], form: String = "WEBP") -> [UInt8] {
        let body = Array(form.utf8) + chunks.flatMap { $0 }
        let size = UInt32(body.count)
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)] + body
    }

    /// An extended WebP (VP8X with ICC, EXIF and XMP flags) with its metadata chunks.
    static let webp = riff([
        riffChunk("VP8X", [0x2C, 0, 0, 0, 44, 1, 0, 200, 0, 0]), riffChunk("ICCP", [1, 2, 3]),
        riffChunk("VP8 ", [0x30, 1, 0, 0x9D, 1, 0x2A, 9, 8, 7]), riffChunk("EXIF", Array("MM\0*".utf8) + [0, 0, 0, 8]),
        riffChunk("XMP ", Array("<x:xmpmeta/>".utf8)),
    ])

    /// An animated WebP of `frames` ANMF chunks.
    static func animatedWebP(frames: Int) -> [UInt8] {
        riff([riffChunk("VP8X", [0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0]), riffChunk("ANIM", [0, 0, 0, 0, 0, 0])]
            + Array(repeating: riffChunk("ANMF", Array(repeating: 1, count: 17)), count: frames))
    }

    /// A classic TIFF of `pages` directories of one entry each, little-endian, chained in order.
    static func tiff(pages: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("II".utf8) + [42, 0, 8, 0, 0, 0]
        for page in 0..<pages {
            let next = page == pages - 1 ? 0 : UInt32(bytes.count + 18)
            bytes += [1, 0] + [0x00, 0x01, 3, 0, 1, 0, 0, 0, UInt8(page + 1), 0, 0, 0]  // ImageWidth, SHORT
            bytes += [UInt8(next & 0xFF), UInt8(next >> 8 & 0xFF), UInt8(next >> 16 & 0xFF), UInt8(next >> 24)]
        }
        return bytes
    }

    /// A GIF89a of `frames` 1x1 frames with a global colour table.
    static func gif(frames: Int) -> [UInt8] {
        var bytes: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        for _ in 0..<frames {
            bytes += [0x21, 0xF9, 4, 0, 10, 0, 0, 0]  // graphic control extension
            bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]
        }
        return bytes + [0x3B]
    }

    /// Bytes from hexadecimal text.
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8)
        return stride(from: 0, to: digits.count - 1, by: 2).map { UInt8(String(decoding: digits[$0...($0 + 1)], as: UTF8.self), radix: 16)! }
    }
}
