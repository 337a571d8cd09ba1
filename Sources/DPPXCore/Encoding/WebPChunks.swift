/// A WebP file's RIFF chunks, for dropping the metadata an encoder wrote into a variant.
///
/// libvips 8.14's WebP saver writes the image's EXIF (and XMP) even when told to strip them,
/// so a master's camera, author and GPS position would reach every variant it saves.
/// `strippingMetadata` removes those chunks, leaving the file a saver that honoured stripping
/// would have written.
public enum WebPChunks {
    /// The chunks that carry metadata rather than pixels, and their flags in the VP8X header.
    static let metadata: [String: UInt8] = ["EXIF": 0x08, "XMP ": 0x04, "ICCP": 0x20]

    /// The four-character names of `webp`'s chunks, in order; nil when it is not a well-formed
    /// WebP (RIFF header, sizes that add up to the file).
    public static func names(_ webp: [UInt8]) -> [String]? {
        chunks(webp)?.map(\.name)
    }

    /// `webp` without its EXIF, XMP and ICC profile chunks, every other chunk unchanged, the
    /// VP8X header's flags for them cleared and the RIFF size updated. The same bytes when it
    /// holds none; nil when it is not a well-formed WebP.
    public static func strippingMetadata(_ webp: [UInt8]) -> [UInt8]? {
        guard let chunks = chunks(webp) else { return nil }
        let cleared = chunks.reduce(UInt8(0)) { $0 | (metadata[$1.name] ?? 0) }
        guard cleared != 0 else { return webp }
        var body: [UInt8] = Array("WEBP".utf8)
        body.reserveCapacity(webp.count)
        for chunk in chunks where metadata[chunk.name] == nil {
            let start = body.count
            body += webp[chunk.range]
            if chunk.name == "VP8X" { body[start + 8] &= ~cleared }
        }
        let size = UInt32(body.count)
        return Array("RIFF".utf8) + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)] + body
    }

    /// A chunk: its name and its bytes in the file, header and padding included.
    struct Chunk {
        let name: String
        let range: Range<Int>
    }

    static func chunks(_ webp: [UInt8]) -> [Chunk]? {
        guard webp.count >= 20, webp.starts(with: Array("RIFF".utf8)), webp[8..<12].elementsEqual("WEBP".utf8),
              littleEndian(webp, at: 4) + 8 == webp.count else { return nil }
        var chunks: [Chunk] = []
        var offset = 12
        while offset < webp.count {
            guard offset + 8 <= webp.count else { return nil }
            let size = littleEndian(webp, at: offset + 4)
            let end = offset + 8 + size + (size & 1)
            guard end <= webp.count else { return nil }
            let nameBytes = webp[offset..<(offset + 4)]
            guard nameBytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if name == "VP8X" && size < 10 { return nil }
            chunks.append(Chunk(name: name, range: offset..<end))
            offset = end
        }
        return chunks.isEmpty ? nil : chunks
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }
}
