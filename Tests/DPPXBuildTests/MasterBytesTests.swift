@testable import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// A master already at the size of an output in its own format is not made worse: its own bytes,
/// metadata removed, unless a re-encode is worth it.
@Suite("Masters kept at their own size")
struct MasterBytesTests {
    /// One file at the master's own size, under its own name (a wide master that states no
    /// density also gets smaller widths).
    static let ownSize = PlanSettings(densities: [Density(1)], defaultSourceDensity: Density(1))

    /// The markers of a JPEG's segments, in order, with the first bytes of each payload.
    static func segments(_ jpeg: [UInt8]) throws -> [(marker: UInt8, payload: String)] {
        try jpeg.withUnsafeBytes { bytes in
            var reader = try #require(JPEGSegmentReader(bytes))
            var found: [(UInt8, String)] = []
            while let segment = try reader.next() {
                let head = bytes[segment.payload.lowerBound..<min(segment.payload.upperBound, segment.payload.lowerBound + 12)]
                found.append((segment.marker.rawValue, String(decoding: head.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)))
            }
            return found
        }
    }

    /// `jpeg` with `segments` (whole, marker to payload) inserted right after SOI.
    static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) -> [UInt8] {
        Array(jpeg[..<2]) + segments.flatMap { $0 } + Array(jpeg[2...])
    }

    /// The first segment of `jpeg` with `marker` whose payload starts with `prefix`, whole.
    static func segment(_ marker: UInt8, startingWith prefix: String, in jpeg: [UInt8]) throws -> [UInt8] {
        let found = jpeg.withUnsafeBytes { bytes -> Range<Int>? in
            guard var reader = JPEGSegmentReader(bytes) else { return nil }
            while let segment = try? reader.next() {
                if segment.marker.rawValue == marker, Array(bytes[segment.payload].prefix(prefix.utf8.count)) == Array(prefix.utf8) {
                    return segment.start..<segment.end
                }
            }
            return nil
        }
        return Array(jpeg[try #require(found, "no \(prefix) segment")])
    }

    /// A web-sized photo as an editor exports it: progressive, optimised at quality 80 (a
    /// re-encode at dppx's 82 gains nothing), with an ICC profile, EXIF (an artist), XMP and a
    /// comment. Large enough that libvips's sRGB profile (7 KB, kept) weighs little.
    static func exported(_ path: String, width: Int = 1600, height: Int = 1000, quality: Int = 80) throws -> [UInt8] {
        let scratch = ScratchFolder("dppx-exported")
        try TestImages.write(scratch("photo.jpg") + "[Q=\(quality),optimize_coding,interlace]", width: width, height: height)
        var bytes = try AtomicFile.read(scratch("photo.jpg"))
        try TestImages.write(scratch("tagged.jpg") + "[profile=srgb]", width: 16, height: 16, artist: "A. Photographer")
        let tagged = try AtomicFile.read(scratch("tagged.jpg"))
        bytes = inserting([
            try segment(0xE1, startingWith: "Exif", in: tagged),
            try #require(JPEGSegment.bytes(JPEGMarker(rawValue: 0xE1), payload: Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))),
            try segment(0xE2, startingWith: "ICC_PROFILE", in: tagged),
            try #require(JPEGSegment.bytes(JPEGMarker(rawValue: 0xFE), payload: Array("exported by a test".utf8))),
        ], into: bytes)
        try TestImages.writeBytes(bytes, to: path)
        return bytes
    }

    @Test("an already web-sized JPEG keeps its own bytes, metadata removed: no EXIF, XMP or comment, its ICC profile kept, the same pixels")
    func webSizedJPEG() throws {
        let fixture = BuildFixture()
        let master = try Self.exported(fixture.source("photo.jpg"))
        let before = try Self.segments(master).map(\.marker)
        #expect(before.contains(0xE1) && before.contains(0xFE) && before.contains(0xE2), "the master has EXIF, XMP, a comment and a profile")
        let report = try fixture.build(Self.ownSize)
        #expect(report.succeeded, "\(report.failures)")

        let written = try AtomicFile.read(fixture.output("photo.jpg"))
        #expect(written == JPEGSegments.strippingMetadata(master))
        #expect(written.count < master.count)
        let segments = try Self.segments(written)
        #expect(!segments.contains { $0.marker == 0xE1 }, "no EXIF or XMP: \(segments.map(\.marker))")
        #expect(!segments.contains { $0.marker == 0xFE }, "no comment")
        #expect(segments.contains { $0.marker == 0xE2 && $0.payload.hasPrefix("ICC_PROFILE") }, "the ICC profile is kept")
        let decoded = try fixture.decoded("photo.jpg")
        #expect(decoded.hasICCProfile && decoded.orientation == nil)
        #expect(decoded.pixels == (try DecodedFile(fixture.source("photo.jpg"))).pixels, "the master's own pixels, not a second generation")
        let variant = try #require(try fixture.manifestOnDisk().images.first?.variants.first { $0.size == PixelSize(width: 1600, height: 1000) })
        #expect(variant.masterBytes == true && variant.bytes == written.count)
    }

    @Test("a re-encode at least 10 % smaller is still written, and the manifest does not call it the master's")
    func largeMasterIsReencoded() throws {
        let fixture = BuildFixture()
        let master = try Self.exported(fixture.source("photo.jpg"), quality: 98)
        #expect(try fixture.build(Self.ownSize).succeeded)
        let written = try AtomicFile.read(fixture.output("photo.jpg"))
        #expect(written.count * 10 <= master.count * 9, "\(written.count) bytes against the master's \(master.count)")
        #expect(!(try Self.segments(written)).contains { $0.marker == 0xE1 || $0.marker == 0xFE })
        let variant = try #require(try fixture.manifestOnDisk().images.first?.variants.first { $0.size == PixelSize(width: 1600, height: 1000) })
        #expect(variant.masterBytes == nil)
    }

    @Test("a rotated master is written upright: its orientation applied, no EXIF left to apply it again")
    func rotatedMasterIsApplied() throws {
        let fixture = BuildFixture()
        // Stored 300x200, shown 200x300.
        try TestImages.write(fixture.source("rotated.jpg") + "[Q=75]", width: 300, height: 200, orientation: 6)
        #expect(try fixture.build(Self.ownSize).succeeded)
        let decoded = try fixture.decoded("rotated.jpg")
        #expect((decoded.width, decoded.height) == (200, 300))
        #expect(decoded.orientation == nil || decoded.orientation == 1)
        #expect(!(try Self.segments(AtomicFile.read(fixture.output("rotated.jpg")))).contains { $0.marker == 0xE1 })
        #expect(try fixture.manifestOnDisk().images.first?.variants.first?.masterBytes == nil)
    }

    @Test("the rule, weighed: a JPEG's re-encode must be 10 % smaller and, under auto, at its target; a PNG's only smaller")
    func rule() {
        typealias Search = Manifest.QualitySearchResult
        let reached = Search(quality: 70, score: 81, target: 80, fixedQualityBytes: 1000)
        let missed = Search(quality: 100, score: 78, target: 80, fixedQualityBytes: 1000)
        #expect(MasterBuilder.keepsMasterBytes(own: 1000, encoded: 901, format: .jpeg, search: nil))
        #expect(!MasterBuilder.keepsMasterBytes(own: 1000, encoded: 900, format: .jpeg, search: nil))
        #expect(!MasterBuilder.keepsMasterBytes(own: 1000, encoded: 800, format: .jpeg, search: reached))
        #expect(MasterBuilder.keepsMasterBytes(own: 1000, encoded: 800, format: .jpeg, search: missed))
        #expect(MasterBuilder.keepsMasterBytes(own: 1000, encoded: 1000, format: .png, search: nil))
        #expect(!MasterBuilder.keepsMasterBytes(own: 1000, encoded: 999, format: .png, search: nil))
    }

    @Test("without recompress-png, a PNG master's own-size file is its own data, metadata removed, with no encode, even where a re-encode would be smaller")
    func pngKeepsItsBytesByDefault() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("palette.png") + "[palette]", width: 240, height: 160)
        try TestImages.write(fixture.source("stored.png") + "[compression=0]", width: 240, height: 160, seed: 4)
        let report = try fixture.build(Self.ownSize)
        #expect(report.succeeded)
        let variants = Dictionary(uniqueKeysWithValues: try fixture.manifestOnDisk().images.map { ($0.source, $0.variants[0]) })
        for name in ["palette.png", "stored.png"] {
            let master = try AtomicFile.read(fixture.source(name))
            #expect(try AtomicFile.read(fixture.output(name)) == PNGChunks.strippingMetadata(master), "\(name)")
            #expect(variants[name]?.masterBytes == true, "\(name)")
        }
        // Neither has an alpha band to drop: nothing for the summary's note.
        #expect(report.recompressible.isEmpty && report.recompressibleNote == nil)
    }

    @Test("with recompress-png, a PNG master keeps the smaller of its own data and a re-encode (both lossless), and the manifest says which")
    func pngKeepsTheSmaller() throws {
        let fixture = BuildFixture()
        // A palette PNG: dppx re-encodes in full colour, larger. An uncompressed one: the re-encode is smaller.
        try TestImages.write(fixture.source("palette.png") + "[palette]", width: 240, height: 160)
        try TestImages.write(fixture.source("stored.png") + "[compression=0]", width: 240, height: 160, seed: 4)
        #expect(try fixture.build(Self.ownSize).succeeded)
        // Asking for it is another setting: both are built again.
        var options = fixture.options(Self.ownSize)
        options.encode.recompressPNG = true
        let report = try Builder(options: options).run()
        #expect(report.built.sorted() == ["palette.png", "stored.png"])
        let variants = Dictionary(uniqueKeysWithValues: try fixture.manifestOnDisk().images.map { ($0.source, $0.variants[0]) })
        let palette = try AtomicFile.read(fixture.source("palette.png")), stored = try AtomicFile.read(fixture.source("stored.png"))
        #expect(try AtomicFile.read(fixture.output("palette.png")) == PNGChunks.strippingMetadata(palette))
        #expect(variants["palette.png"]?.masterBytes == true)
        let reencoded = try AtomicFile.read(fixture.output("stored.png"))
        #expect(reencoded.count < stored.count && variants["stored.png"]?.masterBytes == nil)
        #expect(try fixture.decoded("stored.png").pixels == DecodedFile(fixture.source("stored.png")).pixels)
        #expect(try fixture.decoded("palette.png").pixels == DecodedFile(fixture.source("palette.png")).pixels)
    }

    @Test("a PNG master whose alpha band is opaque everywhere keeps it at its own size by default, and the summary says recompress-png would drop it; with it, the file is RGB and smaller")
    func opaqueAlphaNote() throws {
        let fixture = BuildFixture()
        let pixels = TestImages.photoPixels(width: 240, height: 160, alpha: 255)
        try TestImages.writePixels(pixels, width: 240, height: 160, bands: 4, to: fixture.source("shot.png"))
        try TestImages.write(fixture.source("plain.png"), width: 240, height: 160, seed: 2)
        let plain = try fixture.build(Self.ownSize)
        #expect(plain.succeeded)
        #expect(plain.recompressible == ["shot.png"])
        #expect(plain.recompressibleNote == "note: 1 own-size PNG file is its master's bytes (such as shot.png), with an alpha band that is opaque everywhere: --recompress-png re-encodes it without it, usually smaller (a full-size encode each, once per master)")
        #expect(try fixture.decoded("shot.png").bands == 4)
        let kept = try AtomicFile.read(fixture.output("shot.png"))

        var options = fixture.options(Self.ownSize)
        options.encode.recompressPNG = true
        let recompressed = try Builder(options: options).run()
        #expect(recompressed.succeeded && recompressed.recompressible.isEmpty && recompressed.recompressibleNote == nil)
        #expect(try fixture.decoded("shot.png").bands == 3)
        #expect(try AtomicFile.read(fixture.output("shot.png")).count < kept.count)
        #expect(try fixture.manifestOnDisk().images.first { $0.source == "shot.png" }?.variants[0].masterBytes == nil)
    }
}
