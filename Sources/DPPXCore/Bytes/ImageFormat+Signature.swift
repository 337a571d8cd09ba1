extension ImageFormat {
    /// The format `bytes` are in, from their first bytes (the format's signature), whatever the
    /// file is called; nil for bytes in none of them. SVG is text, with no signature: nil.
    /// Each container's signature is the one its reader checks, so a file recognised here is
    /// one that reader walks.
    public init?(signature bytes: UnsafeRawBufferPointer) {
        let reader = ByteReader(bytes, order: .bigEndian)
        if JPEGSegmentReader(bytes) != nil {
            self = .jpeg
        } else if PNGChunkReader(bytes) != nil {
            self = .png
        } else if reader.matches(Array("GIF87a".utf8), at: 0) || reader.matches(Array("GIF89a".utf8), at: 0) {
            self = .gif
        } else if RIFFChunkReader(bytes)?.formType == "WEBP" {
            self = .webp
        } else if TIFFReader(bytes) != nil {
            self = .tiff
        } else if reader.matches([0xFF, 0x0A], at: 0) || reader.matches([0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A], at: 0) {
            self = .jxl
        } else if let format = Self.isoMediaFormat(reader) {
            self = format
        } else {
            return nil
        }
    }

    /// AVIF or HEIC from an ISO media file's `ftyp` box: its major and compatible brands.
    private static func isoMediaFormat(_ reader: ByteReader) -> ImageFormat? {
        guard reader.fourCC(at: 4) == "ftyp", let size = reader.uint32(at: 0), size >= 16 else { return nil }
        let brands = stride(from: 8, to: min(Int(size), reader.count) - 3, by: 4)
            .compactMap { $0 == 12 ? nil : reader.fourCC(at: $0) }  // 12: the minor version
        if brands.contains(where: { $0 == "avif" || $0 == "avis" }) { return .avif }
        let heif: Set<FourCC> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "hevm", "hevs", "mif1", "msf1"]
        return brands.contains(where: heif.contains) ? .heic : nil
    }
}
