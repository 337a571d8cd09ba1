import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// `--fail-on`: which damaged or quirky JPEGs each level builds and which it refuses. The files
/// are the quirks real cameras, phones and editors write, made here from a good JPEG.
@Suite("--fail-on levels")
struct FailOnTests {
    /// The quirks, each made from a good JPEG's bytes.
    enum Quirk: String, CaseIterable, CustomTestStringConvertible {
        /// Metadata segments a camera writes (EXIF with maker-note-like data, XMP padding,
        /// vendor APP segments) and bytes after the end-of-image marker, as phones append.
        case cameraMetadata
        /// Four zero bytes between two segments: libjpeg's "Corrupt JPEG data: 4 extraneous
        /// bytes before marker 0xdb", which every browser shows without complaint.
        case extraneousBytes
        /// Entropy-coded data overwritten in the middle: libjpeg paints grey from there on.
        case damagedData
        /// Cut at 60 %, no end-of-image marker.
        case truncated

        var testDescription: String { rawValue }

        func apply(to good: [UInt8]) throws -> [UInt8] {
            switch self {
            case .cameraMetadata:
                func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
                    let length = payload.count + 2
                    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
                }
                let makerNote = Array("Exif\0\0".utf8) + [UInt8](repeating: 0x5A, count: 3000)
                let xmp = Array("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta/>".utf8) + [UInt8](repeating: 0x20, count: 2048)
                let vendor = Array("SAMSUNG\0".utf8) + [UInt8](repeating: 0x01, count: 500)
                let trailer = Array("SEFHtrailer written by a phone".utf8)
                return Array(good.prefix(2)) + segment(0xE1, makerNote) + segment(0xE1, xmp) + segment(0xEB, vendor)
                    + Array(good.dropFirst(2)) + trailer
            case .extraneousBytes:
                let table = try #require(JPEGMarkers.offset(of: 0xDB, in: good), "no quantisation table")
                return Array(good.prefix(table)) + [0, 0, 0, 0] + Array(good.dropFirst(table))
            case .damagedData:
                let middle = good.count / 2
                var damaged = good
                for index in middle..<(middle + 200) { damaged[index] = 0xFF }
                return damaged
            case .truncated:
                return Array(good.prefix(good.count * 6 / 10))
            }
        }

        /// The weakest level that refuses it; nil when every level builds it.
        var refusedFrom: FailOn? {
            switch self {
            case .cameraMetadata: nil
            case .extraneousBytes, .damagedData: .warning
            case .truncated: .truncated
            }
        }
    }

    func build(_ quirk: Quirk, at level: FailOn?) throws -> BuildReport {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo.jpg"), width: 640, height: 400)
        let good = try AtomicFile.read(fixture.source("photo.jpg"))
        try TestImages.writeBytes(try quirk.apply(to: good), to: fixture.source("photo.jpg"))
        var options = fixture.options()
        if let level { options.limits.failOn = level }
        return try Builder(options: options).run()
    }

    @Test("each level builds the quirks below it and refuses the rest, naming the file, libjpeg's reason and the flag",
          arguments: Quirk.allCases, FailOn.allCases)
    func levels(quirk: Quirk, level: FailOn) throws {
        let report = try build(quirk, at: level)
        let refused = quirk.refusedFrom.map { level.refuses(from: $0) } ?? false
        if refused {
            #expect(report.failures.map(\.file) == ["photo.jpg"], "\(report.failures)")
            let reason = report.failures.first?.reason ?? ""
            #expect(reason.contains(quirk == .truncated ? "Premature end" : "Corrupt JPEG data"), "\(reason)")
            #expect(reason.contains("--fail-on"), "the message names the flag that builds it: \(reason)")
        } else {
            #expect(report.failures.isEmpty, "\(report.failures)")
            #expect(report.built == ["photo.jpg"])
        }
    }

    @Test("the default is error: camera quirks and extraneous bytes build, a truncated file is refused")
    func defaultLevel() throws {
        #expect(FailOn.default == .error)
        #expect(try build(.extraneousBytes, at: nil).succeeded)
        #expect(try build(.cameraMetadata, at: nil).succeeded)
        #expect(try build(.truncated, at: nil).failures.map(\.file) == ["photo.jpg"])
    }

    @Test("a master refused at a stricter level keeps what the last build wrote")
    func refusedKeepsOutputs() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo.jpg"), width: 640, height: 400)
        let good = try AtomicFile.read(fixture.source("photo.jpg"))
        try TestImages.writeBytes(try Quirk.extraneousBytes.apply(to: good), to: fixture.source("photo.jpg"))
        try #require(try fixture.build().succeeded)
        let first = try fixture.output.files().map { try AtomicFile.read(fixture.output($0)) }
        // Touched, so the next build looks at it again, now at `warning`.
        try TestImages.writeBytes(try Quirk.damagedData.apply(to: good), to: fixture.source("photo.jpg"))
        var options = fixture.options()
        options.limits.failOn = .warning
        let report = try Builder(options: options).run()
        #expect(report.failures.map(\.file) == ["photo.jpg"])
        #expect(try fixture.output.files().map { try AtomicFile.read(fixture.output($0)) } == first)
    }
}

extension FailOn {
    /// Whether this level refuses what `weakest` is the weakest level to refuse.
    func refuses(from weakest: FailOn) -> Bool {
        FailOn.allCases.firstIndex(of: self)! >= FailOn.allCases.firstIndex(of: weakest)!
    }
}
