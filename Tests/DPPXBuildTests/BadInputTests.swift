import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

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

    @Test("a master whose header cannot be read is called damaged or truncated, never an unknown libvips error")
    func unreadableHeader() throws {
        let fixture = BuildFixture()
        try TestImages.writeBytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], to: fixture.source("signature-only.png"))
        try TestImages.writeBytes(Array("GIF89a".utf8), to: fixture.source("header-only.gif"))
        let report = try fixture.build()
        let reasons = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.file, $0.reason) })
        // Between "could not be read" and dppx's remedy is libvips's own text, which differs
        // between libvips versions: only dppx's words are checked.
        for file in ["signature-only.png", "header-only.gif"] {
            let reason = reasons[file] ?? ""
            #expect(reason.hasPrefix("could not be read"), "\(file): \(reason)")
            #expect(reason.hasSuffix(": the file is damaged or truncated; export it again"), "\(file): \(reason)")
            #expect(!reason.contains("unknown libvips error"), "\(file): \(reason)")
        }
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

/// More hostile masters: formats, profiles, markup and names an attacker or a careless export
/// can produce. Each is either built correctly, or skipped with one clear reason; none stops the
/// others, none makes dppx touch the network.
@Suite("Hostile masters are built safely or refused with a reason")
struct HostileMasterTests {
    @Test("a truncated WebP is refused with a reason; the good master builds")
    func truncatedWebP() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("good.webp"), width: 200, height: 100)
        try TestImages.write(fixture.source("truncated.webp"), width: 400, height: 300)
        try TestImages.truncate(fixture.source("truncated.webp"), keeping: 0.5)
        let report = try fixture.build()
        #expect(report.built == ["good.webp"])
        #expect(report.failures.map(\.file) == ["truncated.webp"])
        #expect(report.failures.first?.reason.contains("damaged or truncated") == true, "\(report.failures)")
        #expect(fixture.output.files() == ["dppx-manifest.json", "good.webp", "good@1.5x.webp", "good@2x.webp"])
    }

    @Test("a PNG claiming 20000x20000 is refused by the default --max-pixels, naming the size and the flag")
    func bombMessage() throws {
        let fixture = BuildFixture()
        try TestImages.writeBytes(PNGBomb.header(width: 20_000, height: 20_000), to: fixture.source("bomb.png"))
        try TestImages.write(fixture.source("good.png"), width: 60, height: 40)
        let report = try fixture.build()
        let reason = try #require(report.failures.first { $0.file == "bomb.png" }?.reason)
        #expect(reason.contains("20000x20000"), "\(reason)")
        #expect(reason.contains("more than the limit of \(BuildOptions.defaultMaxPixels) pixels"), "\(reason)")
        #expect(reason.contains("--max-pixels"), "\(reason)")
        #expect(report.built == ["good.png"])
    }

    @Test("a JPEG with a corrupt ICC profile is built as plain sRGB at the right sizes, the profile dropped")
    func corruptProfile() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("plain.jpg"), width: 200, height: 100)
        let plain = try AtomicFile.read(fixture.source("plain.jpg"))
        // An APP2 ICC_PROFILE segment (sequence 1 of 1) whose profile is garbage that claims
        // a size far larger than the segment.
        var profile: [UInt8] = [0x7f, 0xff, 0xff, 0xff] + Array("lcmsmntrRGB XYZ ".utf8)
        profile += (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let payload = Array("ICC_PROFILE".utf8) + [0, 1, 1] + profile
        let length = payload.count + 2
        let segment: [UInt8] = [0xff, 0xe2, UInt8(length >> 8), UInt8(length & 0xff)] + payload
        try TestImages.writeBytes(Array(plain.prefix(2)) + segment + Array(plain.dropFirst(2)), to: fixture.source("badicc.jpg"))
        try FileManager.default.removeItem(atPath: fixture.source("plain.jpg"))
        try TestImages.write(fixture.source("good.jpg"), width: 200, height: 100)

        let report = try fixture.build()
        // libvips warns "corrupt profile" and the pixels are taken as sRGB.
        #expect(report.succeeded, "\(report.failures)")
        #expect(report.built == ["badicc.jpg", "good.jpg"])
        for (name, width) in [("badicc.jpg", 100), ("badicc@1.5x.jpg", 150), ("badicc@2x.jpg", 200)] {
            let file = try fixture.decoded(name)
            #expect(file.width == width && file.height == width / 2, "\(name)")
            #expect(file.interpretation == "srgb", "\(name): \(file.interpretation)")
            #expect(!file.hasICCProfile, "\(name) kept the corrupt profile")
        }
    }

    @Test("an SVG with an external <image href> and a <script> is copied unchanged and nothing is fetched")
    func svgWithExternalReference() throws {
        let listener = try LocalListener()
        defer { listener.close() }
        let fixture = BuildFixture()
        let svg = """
        <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20">\
        <image href="http://127.0.0.1:\(listener.port)/x.png" xlink:href="http://127.0.0.1:\(listener.port)/y.png" width="40" height="20"/>\
        <script>fetch("http://127.0.0.1:\(listener.port)/script")</script>\
        <rect width="10" height="10" fill="red"/></svg>
        """
        try TestImages.writeBytes(Array(svg.utf8), to: fixture.source("remote.svg"))
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        #expect(report.succeeded, "\(report.failures)")
        #expect(fixture.output.files() == ["dppx-manifest.json", "remote.svg"])
        #expect(try AtomicFile.read(fixture.output("remote.svg")) == Array(svg.utf8))
        #expect(try fixture.manifestOnDisk().images.first?.cssSize == PixelSize(width: 40, height: 20))
        #expect(!listener.hasPendingConnection(), "dppx build connected to the URL an SVG referenced")
    }

    @Test("names with quotes are mirrored; a line break or non-UTF-8 bytes in a name are refused with a reason")
    func hostileNames() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source(#"it's "quoted" & <b>.jpg"#), width: 100, height: 60)
        try TestImages.write(fixture.source("line\nbreak.jpg"), width: 100, height: 60)
        // A name with bytes that are not UTF-8 (Latin-1 "é"), made through the raw system call.
        let raw: [UInt8] = Array(fixture.source.path.utf8) + Array("/caf".utf8) + [0xe9] + Array(".jpg".utf8)
        try TestImages.write(fixture.source("valid.jpg"), width: 100, height: 60)
        let renamed = (raw + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { rename(fixture.source("valid.jpg"), $0.baseAddress!) }
        }
        try #require(renamed == 0, "cannot create a non-UTF-8 file name here")

        let report = try fixture.build()
        #expect(report.built == [#"it's "quoted" & <b>.jpg"#])
        #expect(fixture.output.files().contains(#"it's "quoted" & <b>@2x.jpg"#))
        #expect(try fixture.manifestOnDisk().images.map(\.source) == [#"it's "quoted" & <b>.jpg"#])
        #expect(report.failures.count == 2, "\(report.failures)")
        #expect(report.failures.contains { $0.reason.contains("line break") })
        #expect(report.failures.contains { $0.reason.contains("not valid UTF-8") })
        #expect(!fixture.output.files().contains { $0.contains("\n") || $0.contains("caf") })
    }
}

/// A listening socket on a free port of 127.0.0.1 that nothing should connect to.
final class LocalListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Darwin)
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let descriptor = self.descriptor
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && listen(descriptor, 8) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw Failure(reason: String(cString: strerror(errno))) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a connection is waiting to be accepted.
    func hasPendingConnection() -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    func close() { closeDescriptor(descriptor) }

    struct Failure: Error { let reason: String }
}

/// close(2), from outside `LocalListener`, whose own `close` would shadow it.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
