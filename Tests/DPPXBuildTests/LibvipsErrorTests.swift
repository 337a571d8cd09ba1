import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// libvips keeps one error buffer for the whole process: masters failing together on several
/// threads must each be reported with their own reason, never another's, never none.
@Suite("libvips's error text stays with the master that failed")
struct LibvipsErrorTests {
    @Test("damaged PNG, JPEG and WebP masters failing at once, beside masters that only warn, each get their own reason")
    func reasonsDoNotLeak() throws {
        let fixture = BuildFixture()
        for index in 0..<5 {
            try TestImages.write(fixture.source("png\(index).png"), width: 300, height: 200, seed: UInt64(index))
            try TestImages.truncate(fixture.source("png\(index).png"), keeping: 0.5)
            try TestImages.write(fixture.source("jpeg\(index).jpg"), width: 300, height: 200, seed: UInt64(index))
            let jpeg = try AtomicFile.read(fixture.source("jpeg\(index).jpg"))
            try TestImages.writeBytes(Array(jpeg.prefix(jpeg.count / 2)) + [0xFF, 0xD9], to: fixture.source("jpeg\(index).jpg"))
            try TestImages.write(fixture.source("webp\(index).webp"), width: 300, height: 200, seed: UInt64(index))
            try TestImages.truncate(fixture.source("webp\(index).webp"), keeping: 0.5)
            // Builds, with a libvips warning ("corrupt profile") on the way.
            try TestImages.writeBytes(try CorruptProfileJPEG.make(in: fixture.source), to: fixture.source("warns\(index).jpg"))
        }
        var options = fixture.options()
        options.jobs = 4
        // The JPEGs cut short but closed with an end marker are refused only there.
        options.limits.failOn = .warning
        let report = try Builder(options: options).run()
        #expect(report.built.count == 5, "\(report.failures)")
        #expect(report.failures.count == 15)
        let others = ["png": ["jpeg", "webp", "profile"], "jpeg": ["png", "webp", "profile"], "webp": ["png", "jpeg", "profile"]]
        for failure in report.failures {
            let reason = failure.reason.lowercased()
            #expect(!reason.contains("unknown libvips error"), "\(failure)")
            let kind = String(failure.file.prefix { $0.isLetter })
            for word in others[kind] ?? [] {
                #expect(!reason.contains(word), "\(failure.file) was given another master's reason: \(failure.reason)")
            }
        }
    }
}

/// A JPEG with an APP2 ICC profile that is garbage: libvips warns, then takes the pixels as sRGB.
enum CorruptProfileJPEG {
    static func make(in folder: ScratchFolder) throws -> [UInt8] {
        let path = folder("plain-\(UUID().uuidString.prefix(6)).jpg.tmp.jpg")
        try TestImages.write(path, width: 200, height: 100)
        let plain = try AtomicFile.read(path)
        try FileManager.default.removeItem(atPath: path)
        var profile: [UInt8] = [0x7f, 0xff, 0xff, 0xff] + Array("lcmsmntrRGB XYZ ".utf8)
        profile += (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let length = payload.count + 2
        let segment: [UInt8] = [0xff, 0xe2, UInt8(length >> 8), UInt8(length & 0xff)] + payload
        return Array(plain.prefix(2)) + segment + Array(plain.dropFirst(2))
    }
}
