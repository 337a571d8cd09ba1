import DPPXBuild
import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

@Suite("Bad input is named, skipped, and never stops the rest")
struct BadInputTests {
    @Test("truncated, empty, fake and oversized masters each get one clear reason; the others build")
    func hostile() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("good.jpg"), width: 200, height: 100)
        try TestImages.write(fixture.source("truncated.jpg"), width: 400, height: 300)
        try TestImages.truncate(fixture.source("truncated.jpg"), keeping: 0.5)
        try TestImages.write(fixture.source("truncated.png"), width: 400, height: 300)
        try TestImages.truncate(fixture.source("truncated.png"), keeping: 0.5)
        try TestImages.writeBytes([], to: fixture.source("empty.png"))
        try TestImages.writeBytes(Array("this is not an image\n".utf8), to: fixture.source("fake.jpg"))
        try TestImages.write(fixture.source("huge.png"), width: 2000, height: 1000)
        let report = try fixture.build(maxPixels: 1_000_000)
        #expect(report.built == ["good.jpg"])
        let reasons = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.file, $0.reason) })
        #expect(Set(reasons.keys) == ["truncated.jpg", "truncated.png", "empty.png", "fake.jpg", "huge.png"])
        #expect(reasons["empty.png"]?.contains("empty") == true)
        #expect(reasons["fake.jpg"]?.contains("not an image") == true)
        #expect(reasons["huge.png"]?.contains("2000x1000") == true)
        #expect(reasons["huge.png"]?.contains("--max-pixels") == true)
        #expect(reasons["truncated.jpg"].map { !$0.isEmpty } == true)
        #expect(!report.succeeded)
        #expect(fixture.output.files() == ["dppx-manifest.json", "good.jpg", "good@1.5x.jpg", "good@2x.jpg"])
    }

    @Test("a PNG claiming 20000x20000 is refused from its header, before any decoding")
    func bomb() throws {
        let fixture = BuildFixture()
        try TestImages.writeBytes(PNGBomb.header(width: 20_000, height: 20_000), to: fixture.source("bomb.png"))
        let started = Date()
        let report = try fixture.build()
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(report.failures.map(\.file) == ["bomb.png"])
        #expect(report.failures[0].reason.contains("20000x20000"))
    }

    @Test("a missing source folder is an error that names it")
    func missingSource() {
        let fixture = BuildFixture()
        let options = BuildOptions(sourceRoot: fixture.source("nope"), outputRoot: fixture.output.path)
        #expect(throws: BuildError.sourceMissing(fixture.source("nope"))) { try Builder(options: options).run() }
    }

    @Test("an output folder that cannot be created is a clear error")
    func unwritableOutput() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 100, height: 100)
        try TestImages.writeBytes([1], to: fixture.output("file"))
        let options = BuildOptions(sourceRoot: fixture.source.path, outputRoot: fixture.output("file/sub"))
        do {
            _ = try Builder(options: options).run()
            Issue.record("expected an error")
        } catch {
            #expect(String(describing: error).contains(fixture.output("file/sub")))
        }
    }
}

/// A PNG whose header claims a huge size, with almost no data: a decompression bomb's shape.
enum PNGBomb {
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be(UInt32(data.count)) + body + be(crc32(body))
        }
        let ihdr = be(width) + be(height) + [8, 2, 0, 0, 0]
        // A tiny zlib stream of zeros: decoding would ask for 1.2 GB of pixels.
        let idat: [UInt8] = [0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]
        return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", ihdr) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xedb8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
