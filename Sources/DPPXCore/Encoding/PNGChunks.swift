/// A PNG's chunks, for passing a master's pixel data through without re-encoding it.
///
/// A PNG master already at an output's pixel size holds exactly the pixels that output needs;
/// compressing them again costs the most time of any output and rarely makes the file
/// smaller. `strippingMetadata` keeps the chunks that define the pixels and drops the rest,
/// as re-encoding with metadata stripped would.
public enum PNGChunks {
    /// The chunks that make the image: header, palette, transparency, pixel data, end.
    static let kept: Set<FourCC> = ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]

    /// `png` with only the chunks that define its pixels, each unchanged (CRCs included).
    /// Nil when it is not a well-formed PNG, or when it is animated (APNG), whose frames a
    /// still image's output must not carry.
    public static func strippingMetadata(_ png: [UInt8]) -> [UInt8]? {
        png.withUnsafeBytes { bytes -> [UInt8]? in
            guard bytes.count > PNGChunkReader.signature.count + 12, var chunks = PNGChunkReader(bytes) else { return nil }
            var output = PNGChunkReader.signature
            output.reserveCapacity(bytes.count)
            var sawHeader = false, sawData = false
            while let chunk = try? chunks.next() {
                guard chunk.end <= bytes.count, chunk.type.isASCIILetters else { return nil }
                if !sawHeader && chunk.type != "IHDR" { return nil }
                sawHeader = true
                if chunk.type == "acTL" { return nil }
                if chunk.type == "IDAT" { sawData = true }
                if kept.contains(chunk.type) { output += bytes[chunk.start..<chunk.end] }
                if chunk.type == "IEND" { return sawData ? output : nil }
            }
            return nil
        }
    }
}
