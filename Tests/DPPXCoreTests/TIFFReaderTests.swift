import DPPXCore
import Testing

@Suite("TIFF: directories read in either order, classic or BigTIFF, and written in one fixed layout")
struct TIFFReaderTests {
    typealias F = ByteFixtures

    /// Every tag of IFD0 and the directories its entries point to, read with the reader.
    static func tags(_ bytes: [UInt8]) -> [UInt16: [UInt64]] {
        bytes.withUnsafeBytes { raw -> [UInt16: [UInt64]] in
            guard let tiff = TIFFReader(raw), let first = tiff.directory(at: tiff.firstDirectoryOffset) else { return [:] }
            var result: [UInt16: [UInt64]] = [:]
            var directories = [first]
            while let directory = directories.popLast() {
                for entry in tiff.entries(of: directory) {
                    if let rational = tiff.rational(entry) {
                        result[entry.tag] = [UInt64(rational.numerator), UInt64(rational.denominator)]
                    } else {
                        result[entry.tag] = tiff.integer(entry).map { [$0] } ?? []
                    }
                    if entry.tag == 0x8769, let pointed = tiff.directory(pointedToBy: entry) { directories.append(pointed) }
                }
            }
            return result
        }
    }

    @Test("the EXIF dppx writes reads back: IFD0's resolutions and unit, the Exif IFD's dimensions")
    func readsExif() throws {
        let exif = try #require(ExifDensity(pixelSize: PixelSize(width: 301, height: 201), cssSize: PixelSize(width: 151, height: 101)))
        #expect(Self.tags(exif.tiff) == [0x011A: [21672, 151], 0x011B: [14472, 101], 0x0128: [2], 0x8769: [62], 0xA002: [151], 0xA003: [101]])
        exif.tiff.withUnsafeBytes { raw in
            let tiff = TIFFReader(raw)
            #expect(tiff?.byteOrder == .bigEndian)
            #expect(tiff?.isBigTIFF == false)
        }
    }

    @Test("written little-endian, the same fields read back; fields come out in ascending tag order")
    func writesLittleEndian() {
        let fields: [TIFFWriter.Field] = [
            .init(tag: 0x0128, value: .short(2)),
            .init(tag: 0x011A, value: .rational(numerator: 144, denominator: 1)),
            .init(tag: 0x8769, value: .directory([.init(tag: 0xA003, value: .long(250)), .init(tag: 0xA002, value: .long(400))])),
        ]
        let bytes = TIFFWriter.bytes(fields, order: .littleEndian)
        #expect(Array(bytes.prefix(8)) == Array("II".utf8) + [42, 0, 8, 0, 0, 0])
        #expect(Self.tags(bytes) == [0x011A: [144, 1], 0x0128: [2], 0x8769: [50], 0xA002: [400], 0xA003: [250]])
        bytes.withUnsafeBytes { raw in
            guard let tiff = TIFFReader(raw), let first = tiff.directory(at: 8) else { Issue.record("a TIFF"); return }
            #expect(tiff.entries(of: first).map(\.tag) == [0x011A, 0x0128, 0x8769])
            #expect(first.nextOffset == 0)
        }
    }

    @Test("pages: the chain of directories, ended by 0, by a loop, or by an offset outside the file")
    func pages() {
        F.tiff(pages: 5).withUnsafeBytes { #expect(TIFFReader($0)?.directoryChain().count == 5) }
        var looped = F.tiff(pages: 3)
        looped[looped.count - 4] = 8  // the last directory points back to the first
        looped.withUnsafeBytes { #expect(TIFFReader($0)?.directoryChain().count == 3) }
        var outside = F.tiff(pages: 3)
        outside[outside.count - 1] = 0x7F  // the last directory's next offset is far past the end
        outside.withUnsafeBytes { #expect(TIFFReader($0)?.directoryChain().count == 3) }
        var big = F.tiff(pages: 2)
        big[big.count - 18] = 0xFF  // the last directory claims 255 entries it does not hold
        big.withUnsafeBytes { #expect(TIFFReader($0)?.directoryChain().count == 1) }
    }

    @Test("BigTIFF: 8-byte counts and offsets; a count of 2^63 entries is refused, not multiplied")
    func bigTIFF() {
        func le(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }
        let entry = le(0x0100, 2) + le(3, 2) + le(1, 8) + le(64, 8)
        var bytes: [UInt8] = Array("II".utf8) + le(43, 2) + le(8, 2) + le(0, 2) + le(16, 8)
        bytes += le(1, 8) + entry + le(52, 8)  // IFD0 at 16 (36 bytes), the next at 52
        bytes += le(1, 8) + entry + le(0, 8)
        bytes.withUnsafeBytes { raw in
            let tiff = TIFFReader(raw)
            #expect(tiff?.isBigTIFF == true)
            #expect(tiff?.directoryChain().count == 2)
            if let tiff, let first = tiff.directory(at: 16), let width = tiff.entries(of: first).first {
                #expect(tiff.integer(width) == 64)
            } else {
                Issue.record("IFD0 is readable")
            }
        }
        var farRational = bytes
        farRational.replaceSubrange(26..<28, with: le(5, 2))  // IFD0's entry becomes a RATIONAL...
        farRational.replaceSubrange(36..<44, with: le(UInt64(Int.max), 8))  // ...at the largest offset
        farRational.withUnsafeBytes { raw in
            if let tiff = TIFFReader(raw), let first = tiff.directory(at: 16), let entry = tiff.entries(of: first).first {
                #expect(entry.type == 5)
                #expect(tiff.rational(entry) == nil)
            } else {
                Issue.record("IFD0 is readable")
            }
        }
        var hostile = bytes
        hostile.replaceSubrange(16..<24, with: le(1 << 63, 8))
        hostile.withUnsafeBytes { #expect(TIFFReader($0)?.directoryChain().count == 0) }
        var offset = bytes
        offset.replaceSubrange(8..<16, with: le(1 << 62, 8))
        offset.withUnsafeBytes { #expect(TIFFReader($0)?.directoryChain().count == 0) }
    }

    @Test("headers that are not TIFF: wrong mark, wrong version, BigTIFF with another offset size, too short")
    func notTIFF() {
        for bytes: [UInt8] in [Array("IM".utf8) + [42, 0, 8, 0, 0, 0], Array("II".utf8) + [41, 0, 8, 0, 0, 0],
                               Array("MM".utf8) + [0, 43, 0, 4, 0, 0, 0, 0, 0, 0, 0, 16], Array("MM".utf8) + [0, 42, 0]] {
            bytes.withUnsafeBytes { #expect(TIFFReader($0) == nil) }
        }
    }
}
