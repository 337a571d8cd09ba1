/// A PNG's chunks, for passing a master's pixel data through without re-encoding it.
///
/// A PNG master already at an output's pixel size holds exactly the pixels that output needs;
/// compressing them again costs the most time of any output and rarely makes the file
/// smaller. `strippingMetadata` keeps the chunks that define the pixels and drops the rest,
/// as re-encoding with metadata stripped would.
public enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The chunks that make the image: header, palette, transparency, pixel data, end.
    static let kept: Set<String> = ["IHDR", "PLTE", "tRNS", "IDAT", "IEND"]

    /// `png` with only the chunks that define its pixels, each unchanged (CRCs included).
    /// Nil when it is not a well-formed PNG, or when it is animated (APNG), whose frames a
    /// still image's output must not carry.
    public static func strippingMetadata(_ png: [UInt8]) -> [UInt8]? {
        guard png.count > signature.count + 12, png.starts(with: signature) else { return nil }
        var output = signature
        output.reserveCapacity(png.count)
        var offset = signature.count
        var sawHeader = false, sawData = false
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let end = offset + 12 + length
            guard length <= 0x7FFF_FFFF, end <= png.count else { return nil }
            let typeBytes = png[(offset + 4)..<(offset + 8)]
            guard typeBytes.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else { return nil }
            let type = String(decoding: typeBytes, as: UTF8.self)
            if !sawHeader && type != "IHDR" { return nil }
            sawHeader = true
            if type == "acTL" { return nil }
            if type == "IDAT" { sawData = true }
            if kept.contains(type) { output += png[offset..<end] }
            offset = end
            if type == "IEND" { return sawData ? output : nil }
        }
        return nil
    }
}
