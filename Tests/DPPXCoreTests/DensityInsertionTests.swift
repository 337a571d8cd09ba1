import DPPXCore
import Testing

@Suite("Density inserted into a JPEG or PNG answer, from the file's first bytes")
struct DensityInsertionTests {
    static let exif = ExifDensity(pixelSize: PixelSize(width: 301, height: 201), cssSize: PixelSize(width: 151, height: 101))!

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// SOI, then `segments`, then a scan and EOI: the shape of a JPEG, enough for the insertion.
    static func jpeg(_ segments: [[UInt8]]) -> [UInt8] {
        [0xFF, 0xD8] + segments.flatMap { $0 } + segment(0xDA, [1, 2, 3]) + [9, 8, 7, 6, 0xFF, 0xD9]
    }

    static let app0 = segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
    static let quantisation = segment(0xDB, Array(repeating: 5, count: 65))

    /// The representation the insertion describes, built the slow way.
    static func applied(_ insertion: DensityInsertion, to file: [UInt8]) -> [UInt8] {
        insertion.prefix + file[insertion.resumeOffset...]
    }

    @Test("JPEG: the APP1 Exif segment goes right after SOI and APP0, before the tables")
    func jpegAfterApp0() throws {
        let file = Self.jpeg([Self.app0, Self.quantisation])
        let insertion = try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file)
        let expectedSegment = Self.segment(0xE1, Array("Exif".utf8) + [0, 0] + Self.exif.tiff)
        #expect(insertion.resumeOffset == 2 + Self.app0.count)
        #expect(Self.applied(insertion, to: file) == [0xFF, 0xD8] + Self.app0 + expectedSegment + Self.quantisation + file.suffix(13))
        #expect(insertion.prefix.count - insertion.resumeOffset == expectedSegment.count)
    }

    @Test("JPEG without APP0 (libvips writes none when stripping): right after SOI")
    func jpegAfterSOI() throws {
        let file = Self.jpeg([Self.quantisation])
        let insertion = try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file)
        #expect(insertion.resumeOffset == 2)
        #expect(insertion.prefix.count == 2 + 118)
    }

    @Test("only the first bytes are needed: the same answer from a head cut inside the pixel data or just past the scan's start")
    func jpegFromHead() throws {
        let file = Self.jpeg([Self.app0, Self.quantisation]) + Array(repeating: 0x11, count: 100_000)
        let whole = try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file)
        let head = try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file.prefix(DensityInsertion.headLength))
        // Up to the start of the scan is enough; less could hide an Exif segment.
        let short = try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file.prefix(2 + Self.app0.count + Self.quantisation.count + 6))
        #expect(whole == head)
        #expect(whole == short)
    }

    @Test("a JPEG that carries EXIF already, or bytes that are no JPEG, are refused with the reason")
    func jpegRefused() {
        let withExif = Self.jpeg([Self.app0, Self.segment(0xE1, Array("Exif".utf8) + [0, 0, 1, 2]), Self.quantisation])
        #expect(throws: DensityInsertionError.alreadyHasExif(.jpeg)) {
            try DensityInsertion(inserting: Self.exif, into: .jpeg, head: withExif)
        }
        #expect(throws: DensityInsertionError.notA(.jpeg)) {
            try DensityInsertion(inserting: Self.exif, into: .jpeg, head: Array("GIF89a....".utf8))
        }
        #expect(throws: DensityInsertionError.notA(.jpeg)) {
            try DensityInsertion(inserting: Self.exif, into: .jpeg, head: [0xFF, 0xD8, 0x12, 0x34, 0x56])
        }
        let error = DensityInsertionError.alreadyHasExif(.jpeg)
        #expect(error.description.contains("image/jpeg") && error.description.contains("dppx build"))
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let length = UInt32(data.count)
        let body = Array(type.utf8) + data
        let crc = crc32(body)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + body + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
    }

    /// Bit by bit, independent of the table the code uses.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let header = chunk("IHDR", [0, 0, 1, 45, 0, 0, 0, 201, 8, 2, 0, 0, 0])

    @Test("PNG: an eXIf chunk with the right CRC goes right after IHDR, before the pixel data")
    func png() throws {
        let file = Self.pngSignature + Self.header + Self.chunk("IDAT", [1, 2, 3, 4]) + Self.chunk("IEND", [])
        let insertion = try DensityInsertion(inserting: Self.exif, into: .png, head: file)
        #expect(insertion.resumeOffset == 33)
        #expect(Self.applied(insertion, to: file) == Self.pngSignature + Self.header + Self.chunk("eXIf", Self.exif.tiff) + file[33...])
        #expect(insertion.prefix.count - insertion.resumeOffset == 12 + 108)
    }

    @Test("a PNG with eXIf already, a PNG whose first chunk is not IHDR, and other formats are refused")
    func pngRefused() {
        let withExif = Self.pngSignature + Self.header + Self.chunk("eXIf", [1]) + Self.chunk("IDAT", [1]) + Self.chunk("IEND", [])
        #expect(throws: DensityInsertionError.alreadyHasExif(.png)) {
            try DensityInsertion(inserting: Self.exif, into: .png, head: withExif)
        }
        #expect(throws: DensityInsertionError.notA(.png)) {
            try DensityInsertion(inserting: Self.exif, into: .png, head: Self.pngSignature + Self.chunk("IDAT", Array(repeating: 0, count: 13)))
        }
        for format in [ImageFormat.webp, .avif, .gif] {
            #expect(throws: DensityInsertionError.formatCarriesNoDensity(format)) {
                try DensityInsertion(inserting: Self.exif, into: format, head: [0, 1, 2])
            }
        }
    }
}

extension DensityInsertionTests {
    @Test("EXIF behind a 12 KB ICC segment or a 9 KB comment is found: no second block")
    func jpegExifBehindLargeSegments() {
        let exifSegment = Self.segment(0xE1, Array("Exif".utf8) + [0, 0, 1, 2])
        let icc = Self.segment(0xE2, Array("ICC_PROFILE".utf8) + [0, 1, 1] + [UInt8](repeating: 7, count: 12_000))
        let comment = Self.segment(0xFE, [UInt8](repeating: 0x41, count: 9_000))
        for large in [icc, comment] {
            let file = Self.jpeg([Self.app0, large, exifSegment, Self.quantisation])
            #expect(throws: DensityInsertionError.alreadyHasExif(.jpeg)) {
                try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file)
            }
        }
        // Without EXIF, the same large segment leaves the insertion right after APP0.
        let plain = Self.jpeg([Self.app0, icc, Self.quantisation])
        #expect((try? DensityInsertion(inserting: Self.exif, into: .jpeg, head: plain))?.resumeOffset == 2 + Self.app0.count)
    }

    @Test("metadata running past the head is refused (the server then says Content-DPR), never given a second block")
    func metadataPastHead() {
        let huge = Self.segment(0xE2, [UInt8](repeating: 7, count: 60_000))
        let file = Self.jpeg([Self.app0] + Array(repeating: huge, count: 20) + [Self.quantisation])
        #expect(throws: DensityInsertionError.metadataBeyondHead(.jpeg)) {
            try DensityInsertion(inserting: Self.exif, into: .jpeg, head: file)
        }
    }

    @Test("a PNG with eXIf behind a long text chunk, or after IDAT, is refused: no second eXIf")
    func pngExifBehindTextOrAfterPixels() {
        let text = Self.chunk("tEXt", Array("Comment".utf8) + [0] + [UInt8](repeating: 0x41, count: 20_000))
        let exif = Self.chunk("eXIf", Self.exif.tiff)
        let behindText = Self.pngSignature + Self.header + text + exif + Self.chunk("IDAT", [1, 2, 3, 4]) + Self.chunk("IEND", [])
        let afterPixels = Self.pngSignature + Self.header + Self.chunk("IDAT", [1, 2, 3, 4]) + exif + Self.chunk("IEND", [])
        for file in [behindText, afterPixels] {
            #expect(throws: DensityInsertionError.alreadyHasExif(.png)) {
                try DensityInsertion(inserting: Self.exif, into: .png, head: file)
            }
        }
    }
}
