import DPPXCore
import Testing

@Suite("EXIF density: the five tags that make a browser lay an image out at its CSS size")
struct ExifDensityTests {
    /// A big-endian TIFF reader for the test: tag -> (type, count, value or offset).
    struct TIFF {
        let bytes: [UInt8]
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }

        /// The entries of the IFD at `offset`: tag -> (type, count, 4-byte value field offset).
        func ifd(at offset: Int) -> [Int: (type: Int, count: Int, field: Int)] {
            var entries: [Int: (type: Int, count: Int, field: Int)] = [:]
            for index in 0..<u16(offset) {
                let entry = offset + 2 + 12 * index
                entries[u16(entry)] = (u16(entry + 2), u32(entry + 4), entry + 8)
            }
            return entries
        }

        /// Every tag of IFD0 and the Exif IFD, as numbers (rationals as numerator/denominator pairs).
        func tags() -> [Int: [Int]] {
            var result: [Int: [Int]] = [:]
            var ifds = [u32(4)]
            while let offset = ifds.popLast() {
                for (tag, entry) in ifd(at: offset) {
                    switch entry.type {
                    case 3: result[tag] = [u16(entry.field)]
                    case 4: result[tag] = [u32(entry.field)]
                    case 5: result[tag] = [u32(u32(entry.field)), u32(u32(entry.field) + 4)]
                    default: result[tag] = []
                    }
                    if tag == 0x8769 { ifds.append(u32(entry.field)) }
                }
            }
            return result
        }
    }

    @Test("a 301x201 file shown at 151x101: exact rationals, pixel width x 72 / XResolution == PixelXDimension")
    func oddSize() throws {
        let exif = try #require(ExifDensity(pixelSize: PixelSize(width: 301, height: 201), cssSize: PixelSize(width: 151, height: 101)))
        #expect(exif.xResolution == .init(numerator: 21672, denominator: 151))
        #expect(exif.yResolution == .init(numerator: 14472, denominator: 101))
        // The spec's check, in integers: 301 x 72 / (21672 / 151) == 151.
        #expect(301 * 72 * Int(exif.xResolution.denominator) == 151 * Int(exif.xResolution.numerator))
        #expect(201 * 72 * Int(exif.yResolution.denominator) == 101 * Int(exif.yResolution.numerator))
    }

    @Test("exactly the five tags (and the Exif IFD pointer), big-endian, rationals reduced")
    func tags() throws {
        let exif = try #require(ExifDensity(pixelSize: PixelSize(width: 800, height: 500), cssSize: PixelSize(width: 400, height: 250)))
        let tiff = TIFF(bytes: exif.tiff)
        #expect(Array(exif.tiff.prefix(4)) == [0x4D, 0x4D, 0, 42])
        #expect(tiff.tags() == [
            0x011A: [144, 1], 0x011B: [144, 1], 0x0128: [2], 0x8769: [62],
            0xA002: [400], 0xA003: [250],
        ])
        #expect(exif.tiff.count == 108)
    }

    @Test("1.5x: 72 x 1.5 = 108 dpi, still exact for sizes that do not divide evenly")
    func fractionalDensity() throws {
        let exif = try #require(ExifDensity(pixelSize: PixelSize(width: 227, height: 152), cssSize: PixelSize(width: 151, height: 101)))
        let x = exif.xResolution
        #expect(227 * 72 * Int(x.denominator) == 151 * Int(x.numerator))
        #expect(ExifDensity(pixelSize: PixelSize(width: 300, height: 150), cssSize: PixelSize(width: 200, height: 100))?.xResolution
                == .init(numerator: 108, denominator: 1))
    }

    @Test("sizes that cannot be written are refused", arguments: [(0, 10, 10, 10), (10, 10, 0, 10), (-1, 10, 10, 10), (60_000_000, 10, 10, 10)])
    func refused(_ sizes: (Int, Int, Int, Int)) {
        #expect(ExifDensity(pixelSize: PixelSize(width: sizes.0, height: sizes.1), cssSize: PixelSize(width: sizes.2, height: sizes.3)) == nil)
    }
}
