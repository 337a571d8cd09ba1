/// A variant file with `ExifDensity` written in, as a server sends it without rewriting the file
/// or reading it whole: `prefix` (the file's first `resumeOffset` bytes, then the new metadata),
/// then the file from `resumeOffset` to its end.
///
/// Worked out from the file's first bytes alone (`headLength` of them): in a JPEG the APP1
/// segment goes right after SOI and any APP0 (JFIF) segments; in a PNG the `eXIf` chunk goes
/// right after IHDR, before any pixel data, as the PNG specification requires. Every segment or
/// chunk up to the image data is walked, whatever its size (a 12 KB ICC profile, a long
/// comment), so an EXIF block behind it is found; a file whose metadata does not end within
/// the head is refused rather than given a second block.
public struct DensityInsertion: Hashable, Sendable {
    /// The bytes sent first: the file's bytes before `resumeOffset`, then the metadata.
    public let prefix: [UInt8]
    /// Where the rest of the file starts.
    public let resumeOffset: Int

    /// How many of a file's first bytes `init(inserting:into:head:)` reads at most: the
    /// insertion point is within the first hundred bytes of dppx's variants, and everything
    /// before the pixel data (where an existing EXIF block would be: ICC profiles, comments,
    /// text chunks) within far less than this. A PNG's chunks after its pixel data are checked
    /// within it too (all of them in a file no longer).
    public static let headLength = 1 << 20

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

    /// What an APP1 segment holding EXIF starts with.
    private static let exifHeader = Array("Exif".utf8) + [0, 0]

    private static func jpeg(_ exif: ExifDensity, head: [UInt8]) throws(DensityInsertionError) -> DensityInsertion {
        guard head.count >= 4, let segment = JPEGSegment.bytes(.app1, payload: exifHeader + exif.tiff) else { throw .notA(.jpeg) }
        let point = head.withUnsafeBytes { bytes -> Result<Int, DensityInsertionError> in
            guard var segments = JPEGSegmentReader(bytes) else { return .failure(.notA(.jpeg)) }
            let reader = ByteReader(bytes, order: .bigEndian)
            var insertAt: Int?
            var stoppedAt = segments.offset
            var reachedScan = false
            // Segments up to the scan data: APP0s right after SOI are passed, an existing Exif refused.
            do {
                while let found = try segments.next() {
                    if found.marker == .startOfScan || found.marker == .endOfImage {
                        stoppedAt = found.start
                        reachedScan = true
                        break
                    }
                    if found.marker != .app0, insertAt == nil { insertAt = found.start }
                    if found.marker == .app1, reader.matches(exifHeader, at: found.payload.lowerBound) { return .failure(.alreadyHasExif(.jpeg)) }
                    stoppedAt = found.end
                }
            } catch {
                return .failure(.notA(.jpeg))
            }
            // Metadata running past the head may hide an Exif segment.
            guard reachedScan else { return .failure(bytes.count >= headLength ? .metadataBeyondHead(.jpeg) : .notA(.jpeg)) }
            let point = insertAt ?? stoppedAt
            return point <= bytes.count ? .success(point) : .failure(.notA(.jpeg))
        }
        let at = try point.get()
        return DensityInsertion(prefix: Array(head[..<at]) + segment, resumeOffset: at)
    }

    private static func png(_ exif: ExifDensity, head: [UInt8]) throws(DensityInsertionError) -> DensityInsertion {
        let headerEnd = head.withUnsafeBytes { bytes -> Result<Int, DensityInsertionError> in
            guard var chunks = PNGChunkReader(bytes) else { return .failure(.notA(.png)) }
            do {
                guard let header = try chunks.next(), header.type == "IHDR", header.data.count == 13, header.end <= bytes.count else {
                    return .failure(.notA(.png))
                }
                // Every chunk, up to the pixel data and after it (where the specification
                // allows eXIf too): an existing eXIf refused. Metadata running past the head
                // before the pixel data may hide one.
                var reachedPixels = false
                while let chunk = try chunks.next() {
                    if chunk.type == "eXIf" { return .failure(.alreadyHasExif(.png)) }
                    if chunk.type == "IDAT" { reachedPixels = true }
                    if chunk.type == "IEND" { break }
                }
                guard reachedPixels else { return .failure(bytes.count >= headLength ? .metadataBeyondHead(.png) : .notA(.png)) }
                return .success(header.end)
            } catch {
                return .failure(.notA(.png))
            }
        }
        let at = try headerEnd.get()
        return DensityInsertion(prefix: Array(head[..<at]) + PNGChunk.bytes("eXIf", data: exif.tiff), resumeOffset: at)
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
    /// The metadata before the image data runs past `DensityInsertion.headLength`: an EXIF
    /// block may be there.
    case metadataBeyondHead(ImageFormat)

    public var description: String {
        switch self {
        case .formatCarriesNoDensity(let format):
            "browsers read no density from \(format.mediaType) files; only JPEG and PNG can carry it"
        case .notA(let format):
            "the file does not start like a \(format.mediaType) file; rebuild it with dppx build"
        case .alreadyHasExif(let format):
            "the \(format.mediaType) file carries EXIF already, which dppx's variants never do; rebuild it with dppx build"
        case .metadataBeyondHead(let format):
            "the \(format.mediaType) file's metadata runs past its first \(DensityInsertion.headLength >> 10) KiB, which dppx's variants never do; rebuild it with dppx build"
        }
    }
}
