import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

/// Files that cost far more to decode than their pixel count says: each is refused before
/// decoding, naming the limit that stopped it and the flag that raises it.
@Suite("Decode limits: frames, pages, scans")
struct DecodeLimitTests {
    func build(_ fixture: BuildFixture, maxFrames: Int = DecodeLimits.defaultMaxFrames, maxScans: Int = DecodeLimits.defaultMaxScans) throws -> BuildReport {
        var options = fixture.options()
        options.limits.maxFrames = maxFrames
        options.limits.maxScans = maxScans
        return try Builder(options: options).run()
    }

    @Test("a TIFF of more pages than --max-frames is refused, naming the pages and the flag; one under it builds")
    func tiffPages() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("pages.tif"), width: 2, height: 2, frames: 30)
        try TestImages.writeAnimation(fixture.source("few.tif"), width: 2, height: 2, frames: 3)
        let report = try build(fixture, maxFrames: 20)
        let reason = try #require(report.failures.first { $0.file == "pages.tif" }?.reason, "\(report.failures)")
        #expect(reason.contains("30 pages") && reason.contains("limit of 20") && reason.contains("--max-frames"), "\(reason)")
        #expect(report.built == ["few.tif"], "\(report.failures)")
    }

    @Test("a BigTIFF whose first directory claims 2^62 entries is refused as damaged, naming the file, and the build goes on")
    func hostileBigTIFF() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("few.tif"), width: 2, height: 2, frames: 3)
        func littleEndian(_ value: UInt64, _ size: Int) -> [UInt8] { (0..<size).map { UInt8(value >> (8 * UInt64($0)) & 0xFF) } }
        let header = Array("II".utf8) + littleEndian(43, 2) + littleEndian(8, 2) + littleEndian(0, 2) + littleEndian(16, 8)
        let directory = littleEndian(1 << 62, 8) + Array(repeating: 0, count: 64)
        try TestImages.writeBytes(header + directory, to: fixture.source("hostile.tif"))
        let report = try build(fixture)
        let reason = try #require(report.failures.first { $0.file == "hostile.tif" }?.reason, "\(report.failures)")
        #expect(reason.contains("could not be read") || reason.contains("not an image"), "\(reason)")
        #expect(report.built == ["few.tif"], "\(report.failures)")
    }

    @Test("an animated WebP of more frames than --max-frames is refused")
    func webpFrames() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("spin.webp"), width: 8, height: 8, frames: 40)
        let report = try build(fixture, maxFrames: 20)
        let reason = try #require(report.failures.first?.reason, "\(report.failures)")
        #expect(reason.contains("frames, more than the limit of 20") && reason.contains("--max-frames"), "\(reason)")
    }

    @Test("a WebP of 100,000 frames is refused from its container, in seconds, before libvips counts its frames")
    func webpFramesCountedFirst() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("two.webp"), width: 8, height: 8, frames: 2)
        let bytes = try AtomicFile.read(fixture.source("two.webp"))
        try FileManager.default.removeItem(atPath: fixture.source("two.webp"))
        // RIFF chunks: the first ANMF (one frame) again and again.
        var index = 12
        var frame: Range<Int>?
        while index + 8 <= bytes.count, frame == nil {
            let size = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
            if Array(bytes[index..<(index + 4)]) == Array("ANMF".utf8) { frame = index..<(index + 8 + size + (size & 1)) }
            index += 8 + size + (size & 1)
        }
        let chunk = try #require(frame.map { Array(bytes[$0]) })
        var many = Array(bytes[..<frame!.lowerBound]) + Array(repeating: chunk, count: 100_000).flatMap { $0 }
        let size = UInt32(many.count - 8)
        many.replaceSubrange(4..<8, with: [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24)])
        try TestImages.writeBytes(many, to: fixture.source("many.webp"))
        let started = Date()
        let report = try build(fixture)
        #expect(Date().timeIntervalSince(started) < 5)
        let reason = try #require(report.failures.first?.reason)
        #expect(reason.contains("100000 frames") && reason.contains("--max-frames"), "\(reason)")
    }

    @Test("a GIF of more frames than libvips's decoder reads (4097) is refused rather than cut short")
    func gifOverDecoderLimit() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("long.gif"), width: 2, height: 2, frames: 4200)
        let report = try build(fixture, maxFrames: 10_000)
        let reason = try #require(report.failures.first { $0.file == "long.gif" }?.reason, "built: \(report.built)")
        #expect(reason.contains("4200 frames") && reason.contains("only the first 4097"), "\(reason)")
        // Under the default limit, the real count is what --max-frames is checked against.
        let limited = try build(fixture, maxFrames: 1000)
        let limitedReason = try #require(limited.failures.first?.reason)
        #expect(limitedReason.contains("4200 frames") && limitedReason.contains("--max-frames"), "\(limitedReason)")
    }

    @Test("a progressive JPEG of more scans than --max-scans is refused before decoding")
    func progressiveScans() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("plain.jpg[interlace]"), width: 64, height: 48)
        let bytes = try AtomicFile.read(fixture.source("plain.jpg"))
        try FileManager.default.removeItem(atPath: fixture.source("plain.jpg"))
        let scans = JPEGMarkers.segments(in: bytes).filter { bytes[$0.start + 1] == 0xDA }
        try #require(scans.count >= 2 && scans.count <= 12, "libvips wrote \(scans.count) scans")
        // The last scan again and again: a file of many scans over the same image.
        let last = try #require(scans.last)
        let repeated = Array(bytes[..<last.end]) + Array(repeating: Array(bytes[last.start..<last.end]), count: 40).flatMap { $0 }
            + Array(bytes[last.end...])
        try TestImages.writeBytes(repeated, to: fixture.source("scans.jpg"))
        try TestImages.write(fixture.source("normal.jpg[interlace]"), width: 64, height: 48)
        let report = try build(fixture, maxScans: 20)
        let reason = try #require(report.failures.first { $0.file == "scans.jpg" }?.reason, "\(report.failures)")
        #expect(reason.contains("more than 20 scans") && reason.contains("--max-scans"), "\(reason)")
        #expect(report.built == ["normal.jpg"])
    }

    @Test("a PNG zlib bomb of 12000x12000 (432 MB decoded, under libvips's own limit) is refused by the default --max-pixels")
    func pngBombUnderLibvipsLimit() throws {
        let fixture = BuildFixture()
        try TestImages.writeBytes(PNGBomb.header(width: 12_000, height: 12_000), to: fixture.source("bomb.png"))
        let report = try fixture.build()
        let reason = try #require(report.failures.first?.reason)
        #expect(reason.contains("12000x12000") && reason.contains("--max-pixels"), "\(reason)")
    }

    @Test("an SVG declaring a huge width is copied: it is never rendered, so --max-pixels does not apply")
    func svgIgnoresPixelLimit() throws {
        let fixture = BuildFixture()
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="100000"><rect width="10" height="10"/></svg>"#
        try TestImages.writeBytes(Array(svg.utf8), to: fixture.source("wide.svg"))
        let report = try fixture.build(maxPixels: 1_000_000)
        #expect(report.succeeded, "\(report.failures)")
        #expect(fixture.output.files() == ["dppx-manifest.json", "wide.svg"])
    }

    @Test("an SVG with an attribute over 10 MB is refused with the parser's real limit, not called damaged")
    func svgHugeAttribute() throws {
        let fixture = BuildFixture()
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="10" height="10" data-x=""#
            + String(repeating: "a", count: 10_500_000) + #""/></svg>"#
        try TestImages.writeBytes(Array(svg.utf8), to: fixture.source("big.svg"))
        let report = try fixture.build()
        let reason = try #require(report.failures.first?.reason)
        #expect(reason.contains("10500000 bytes") && reason.contains("10000000"), "\(reason)")
        #expect(!reason.contains("damaged or truncated"), "\(reason)")
    }
}
