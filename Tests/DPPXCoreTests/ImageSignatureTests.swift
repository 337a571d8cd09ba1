import DPPXCore
import Testing

@Suite("Format signatures: what a file is, from its first bytes")
struct ImageSignatureTests {
    typealias F = ByteFixtures

    static func format(_ bytes: [UInt8]) -> ImageFormat? {
        bytes.withUnsafeBytes { ImageFormat(signature: $0) }
    }

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let size = 16 + 4 * compatible.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
            + [0, 0, 0, 8] + Array("meta".utf8)
    }

    @Test("each container dppx reads or writes is recognised by the signature its reader checks")
    func recognised() {
        #expect(Self.format(F.jpeg) == .jpeg)
        #expect(Self.format(F.png) == .png)
        #expect(Self.format(F.gif(frames: 1)) == .gif)
        #expect(Self.format(Array("GIF87a".utf8) + [0, 0]) == .gif)
        #expect(Self.format(F.webp) == .webp)
        #expect(Self.format(F.tiff(pages: 1)) == .tiff)
        #expect(Self.format(ExifDensity(pixelSize: PixelSize(width: 2, height: 2), cssSize: PixelSize(width: 1, height: 1))!.tiff) == .tiff)
        #expect(Self.format([0xFF, 0x0A, 0xFA, 0x7F]) == .jxl)
        #expect(Self.format([0, 0, 0, 0x0C] + Array("JXL \r\n".utf8) + [0x87, 0x0A, 0, 0]) == .jxl)
        #expect(Self.format(Self.ftyp("avif", ["mif1", "miaf"])) == .avif)
        #expect(Self.format(Self.ftyp("mif1", ["avif", "miaf"])) == .avif)
        #expect(Self.format(Self.ftyp("heic", ["mif1", "heic"])) == .heic)
    }

    @Test("text, other containers and every cut signature are nothing")
    func unrecognised() {
        #expect(Self.format(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == nil)
        #expect(Self.format(F.riff([F.riffChunk("fmt ", [1, 2])], form: "WAVE")) == nil)
        #expect(Self.format(Self.ftyp("isom", ["mp41"])) == nil)
        #expect(Self.format([]) == nil)
        for file in [F.png, F.webp, F.gif(frames: 1)] {
            for length in 0..<6 { #expect(Self.format(Array(file.prefix(length))) == nil) }
        }
        #expect(Self.format([0xFF, 0xD8]) == nil)
        #expect(Self.format([0xFF, 0xD8, 0x00, 0x00]) == nil)
    }
}
