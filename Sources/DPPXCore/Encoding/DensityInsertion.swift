/// A variant file with `ExifDensity` written in, as a server sends it without rewriting the file
/// or reading it whole: `prefix` (the file's first `resumeOffset` bytes, then the new metadata),
/// then the file from `resumeOffset` to its end.
///
/// Worked out from the file's first bytes alone (`headLength` of them are enough for the files
/// dppx writes): in a JPEG the APP1 segment goes right after SOI and any APP0 (JFIF) segments;
/// in a PNG the `eXIf` chunk goes right after IHDR, before any pixel data, as the PNG
/// specification requires.
public struct DensityInsertion: Hashable, Sendable {
    /// The bytes sent first: the file's bytes before `resumeOffset`, then the metadata.
    public let prefix: [UInt8]
    /// Where the rest of the file starts.
    public let resumeOffset: Int

    /// How many of a file's first bytes `init(inserting:into:head:)` reads at most: the
    /// insertion point is within the first hundred bytes of dppx's variants, and their tables
    /// before the pixel data (where an existing EXIF block would be) within the first few KiB.
    public static let headLength = 8 << 10

    /// The insertion of `exif` into a `format` file that starts with `head` (its first
    /// `headLength` bytes, or all of it when shorter). Throws when the format cannot carry
    /// density for a browser (only JPEG and PNG do), when `head` is not the start of such a file,
    /// or when the file carries EXIF already (dppx's variants never do).
    public init(inserting exif: ExifDensity, into format: ImageFormat, head: some Collection<UInt8>) throws(DensityInsertionError) {
        let head = Array(head.prefix(Self.headLength))
        switch format {
        case .jpeg: self = try Self.jpeg(exif, head: head)
        case .png: self = try Self.png(exif, head: head)
        default: throw .formatCarriesNoDensity(format)
        }
    }

    private static func jpeg(_ exif: ExifDensity, head: [UInt8]) throws(DensityInsertionError) -> DensityInsertion {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF else { throw .notA(.jpeg) }
        let payload = Array("Exif".utf8) + [0, 0] + exif.tiff
        var segment: [UInt8] = [0xFF, 0xE1]
        ExifDensity.append(UInt16(payload.count + 2), to: &segment)
        segment += payload

        var offset = 2
        var insertAt: Int?
        // Markers up to the scan data: APP0s right after SOI are passed, an existing Exif refused.
        while offset + 4 <= head.count {
            guard head[offset] == 0xFF else { throw .notA(.jpeg) }
            let marker = head[offset + 1]
            guard marker != 0xDA, marker != 0xD9 else { break }  // start of scan, end of image
            if marker != 0xE0, insertAt == nil { insertAt = offset }
            let length = Int(head[offset + 2]) << 8 | Int(head[offset + 3])
            guard length >= 2 else { throw .notA(.jpeg) }
            if marker == 0xE1, head.count >= offset + 10, Array(head[(offset + 4)..<(offset + 10)]) == Array("Exif".utf8) + [0, 0] {
                throw .alreadyHasExif(.jpeg)
            }
            offset += 2 + length
        }
        let point = insertAt ?? offset
        guard point <= head.count else { throw .notA(.jpeg) }
        return DensityInsertion(prefix: Array(head[..<point]) + segment, resumeOffset: point)
    }

    private static func png(_ exif: ExifDensity, head: [UInt8]) throws(DensityInsertionError) -> DensityInsertion {
        let headerEnd = PNGChunks.signature.count + 12 + 13
        guard head.count >= headerEnd, head.starts(with: PNGChunks.signature),
              Array(head[8..<16]) == [0, 0, 0, 13] + Array("IHDR".utf8)
        else { throw .notA(.png) }
        // Chunks up to the pixel data: an existing eXIf refused.
        var offset = headerEnd
        while offset + 8 <= head.count {
            let length = Int(head[offset]) << 24 | Int(head[offset + 1]) << 16 | Int(head[offset + 2]) << 8 | Int(head[offset + 3])
            let type = Array(head[(offset + 4)..<(offset + 8)])
            if type == Array("IDAT".utf8) { break }
            if type == Array("eXIf".utf8) { throw .alreadyHasExif(.png) }
            offset += 12 + length
        }
        let data = exif.tiff
        var chunk: [UInt8] = []
        ExifDensity.append(UInt32(data.count), to: &chunk)
        chunk += Array("eXIf".utf8) + data
        ExifDensity.append(CRC32.checksum(chunk[4...]), to: &chunk)
        return DensityInsertion(prefix: Array(head[..<headerEnd]) + chunk, resumeOffset: headerEnd)
    }

    private init(prefix: [UInt8], resumeOffset: Int) {
        self.prefix = prefix
        self.resumeOffset = resumeOffset
    }
}

/// Why a density could not be written into a file's answer.
public enum DensityInsertionError: Error, Equatable, CustomStringConvertible {
    /// Browsers honour density only in JPEG and PNG.
    case formatCarriesNoDensity(ImageFormat)
    /// The bytes do not start like a file of that format.
    case notA(ImageFormat)
    /// The file has EXIF already: a second block would be ambiguous.
    case alreadyHasExif(ImageFormat)

    public var description: String {
        switch self {
        case .formatCarriesNoDensity(let format):
            "browsers read no density from \(format.mediaType) files; only JPEG and PNG can carry it"
        case .notA(let format):
            "the file does not start like a \(format.mediaType) file; rebuild it with dppx build"
        case .alreadyHasExif(let format):
            "the \(format.mediaType) file carries EXIF already, which dppx's variants never do; rebuild it with dppx build"
        }
    }
}
