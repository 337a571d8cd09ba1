import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// JPEGs whose entropy data is damaged decode "successfully" in libjpeg, as grey from the
/// damage on, with only a warning: at `--fail-on warning` such a master is named and skipped,
/// and what the previous build wrote stays. (The default, `error`, builds them as browsers
/// show them: `FailOnTests`.)
@Suite("Damaged JPEGs are refused at --fail-on warning, and earlier outputs kept")
struct DamagedMasterTests {
    /// Builds a good `hero.jpg`, replaces it with `damage(bytes)`, builds again; returns the
    /// second report and whether the outputs are still the first build's.
    func rebuild(damaging damage: ([UInt8]) -> [UInt8]) throws -> (BuildReport, keptOutputs: Bool) {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("hero.jpg"), width: 400, height: 300)
        try #require(try fixture.build().succeeded)
        let first = try fixture.output.files().map { try AtomicFile.read(fixture.output($0)) }
        let good = try AtomicFile.read(fixture.source("hero.jpg"))
        try TestImages.writeBytes(damage(good), to: fixture.source("hero.jpg"))
        var options = fixture.options()
        options.limits.failOn = .warning
        let report = try Builder(options: options).run()
        let second = try fixture.output.files().map { try AtomicFile.read(fixture.output($0)) }
        return (report, first == second)
    }

    @Test("a JPEG cut short and closed with an end-of-image marker is refused, naming libjpeg's reason")
    func truncatedWithEndMarker() throws {
        let (report, kept) = try rebuild { Array($0.prefix(2200)) + [0xFF, 0xD9] }
        #expect(report.failures.map(\.file) == ["hero.jpg"])
        #expect(report.failures.first?.reason.contains("Corrupt JPEG data") == true, "\(report.failures)")
        #expect(report.failures.first?.reason.contains("damaged") == true, "\(report.failures)")
        #expect(kept, "the previous good variants were overwritten")
    }

    @Test("a JPEG with a 200-byte damaged stretch in the middle is refused")
    func damagedStretch() throws {
        let (report, kept) = try rebuild { bytes in
            var damaged = bytes
            let middle = damaged.count / 2
            for index in middle..<(middle + 200) { damaged[index] = 0xFF }
            return damaged
        }
        #expect(report.failures.map(\.file) == ["hero.jpg"])
        #expect(kept, "the previous good variants were overwritten")
    }

    @Test("a tiny JPEG whose header claims 16000x16000 is refused in seconds, writing nothing")
    func tinyFileHugeHeader() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("plain.jpg"), width: 16, height: 16)
        var bytes = try AtomicFile.read(fixture.source("plain.jpg"))
        try FileManager.default.removeItem(atPath: fixture.source("plain.jpg"))
        let frame = try #require(JPEGMarkers.offset(of: 0xC0, in: bytes), "no baseline frame header")
        for (offset, value) in [(5, 16000), (7, 16000)] {
            bytes[frame + offset] = UInt8(value >> 8)
            bytes[frame + offset + 1] = UInt8(value & 0xFF)
        }
        let scan = try #require(JPEGMarkers.offset(of: 0xDA, in: bytes), "no scan")
        let header = Array(bytes.prefix(scan + 2 + (Int(bytes[scan + 2]) << 8 | Int(bytes[scan + 3]))))
        try TestImages.writeBytes(header + [0x12, 0x34, 0x56, 0x78] + [0xFF, 0xD9], to: fixture.source("bomb.jpg"))
        let started = Date()
        // Over the default --max-pixels, which refuses it from the header: this is the check of
        // the file's size (`JPEGMinimumSize`) at the default --fail-on, the decoder's at warning.
        for level in [FailOn.default, .warning] {
            var options = fixture.options(maxPixels: 300_000_000)
            options.limits.failOn = level
            let report = try Builder(options: options).run()
            #expect(report.failures.map(\.file) == ["bomb.jpg"], "\(level): \(report.failures)")
            if level == .default {
                #expect(report.failures.first?.reason.contains("claims 16000x16000 pixels in") == true, "\(report.failures)")
            }
        }
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(fixture.output.files().isEmpty || fixture.output.files() == ["dppx-manifest.json"])
    }
}

/// Finds segments in a JPEG, for tests that edit headers and scans.
enum JPEGMarkers {
    /// The offset of the first segment with `marker` (its 0xFF byte).
    static func offset(of marker: UInt8, in bytes: [UInt8]) -> Int? {
        segments(in: bytes).first { bytes[$0.start + 1] == marker }?.start
    }

    /// Every segment up to the end of image: start offset and end (exclusive), scans with
    /// their entropy-coded data.
    static func segments(in bytes: [UInt8]) -> [(start: Int, end: Int)] {
        var result: [(start: Int, end: Int)] = []
        var index = 2
        while index + 3 < bytes.count, bytes[index] == 0xFF, bytes[index + 1] != 0xD9 {
            var end = index + 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
            if bytes[index + 1] == 0xDA {
                while end + 1 < bytes.count, !(bytes[end] == 0xFF && bytes[end + 1] != 0 && !(0xD0...0xD7).contains(bytes[end + 1])) {
                    end += 1
                }
            }
            result.append((index, end))
            index = end
        }
        return result
    }
}
