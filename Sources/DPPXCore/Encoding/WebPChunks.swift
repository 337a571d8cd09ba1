/// A WebP file's RIFF chunks, for dropping the metadata an encoder wrote into a variant.
///
/// libvips 8.14's WebP saver writes the image's EXIF (and XMP) even when told to strip them,
/// so a master's camera, author and GPS position would reach every variant it saves.
/// `strippingMetadata` removes those chunks, leaving the file a saver that honoured stripping
/// would have written.
public enum WebPChunks {
    /// The chunks that carry metadata rather than pixels, and their flags in the VP8X header.
    static let metadata: [FourCC: UInt8] = ["EXIF": 0x08, "XMP ": 0x04, "ICCP": 0x20]

    /// The four-character names of `webp`'s chunks, in order; nil when it is not a well-formed
    /// WebP (RIFF header, sizes that add up to the file).
    public static func names(_ webp: [UInt8]) -> [String]? {
        chunks(webp)?.map(\.id.description)
    }

    /// `webp` without its EXIF, XMP and ICC profile chunks, every other chunk unchanged, the
    /// VP8X header's flags for them cleared and the RIFF size updated. The same bytes when it
    /// holds none; nil when it is not a well-formed WebP.
    public static func strippingMetadata(_ webp: [UInt8]) -> [UInt8]? {
        guard let chunks = chunks(webp) else { return nil }
        let cleared = chunks.reduce(UInt8(0)) { $0 | (metadata[$1.id] ?? 0) }
        guard cleared != 0 else { return webp }
        var body: [UInt8] = Array("WEBP".utf8)
        body.reserveCapacity(webp.count)
        for chunk in chunks where metadata[chunk.id] == nil {
            let start = body.count
            body += webp[chunk.start..<chunk.end]
            if chunk.id == "VP8X" { body[start + 8] &= ~cleared }
        }
        var file = ByteWriter(order: .littleEndian, capacity: 8 + body.count)
        file.write("RIFF" as FourCC)
        file.write(UInt32(body.count))
        file.write(body)
        return file.bytes
    }

    /// The chunks of a well-formed WebP: a RIFF header whose size is the file's, chunks that
    /// end inside it and fill it, printable names, a VP8X header of its full 10 bytes.
    static func chunks(_ webp: [UInt8]) -> [RIFFChunk]? {
        webp.withUnsafeBytes { bytes -> [RIFFChunk]? in
            guard bytes.count >= 20, var reader = RIFFChunkReader(bytes), reader.formType == "WEBP",
                  reader.declaredSize + 8 == bytes.count else { return nil }
            var chunks: [RIFFChunk] = []
            while let chunk = reader.next() {
                guard chunk.end <= bytes.count, chunk.id.isPrintableASCII else { return nil }
                if chunk.id == "VP8X" && chunk.payload.count < 10 { return nil }
                chunks.append(chunk)
            }
            guard reader.offset == bytes.count else { return nil }
            return chunks.isEmpty ? nil : chunks
        }
    }
}
