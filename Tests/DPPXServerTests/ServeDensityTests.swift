import DPPXCore
import DPPXTestSupport
import Foundation
import HTTPTypes
import Testing

/// A negotiated JPEG or PNG answer with the variant's density written into its EXIF, from the
/// responder (a variant streamed from disk: over a real socket): the bytes, `Content-Length`,
/// `ETag`, ranges, 304s and HEAD all describe the answer as sent (file plus EXIF), never the file
/// on disk, and `Content-DPR` never comes with it.
@Suite("dppx serve writes the density into negotiated answers")
struct ServeDensityTests {
    /// ROOT with real images: `photo.jpg` and `shot.png` at 1x and 2x of a 200x100 box, and
    /// `big.png`, whose 2x file is too large to be held in memory (streamed from disk).
    final class Site: Sendable {
        let fixture: ServerFixture
        let manifest: Manifest

        init() throws {
            fixture = try ServerFixture()
            let root = fixture.root
            try TestImages.write(root + "/photo.jpg[strip]", width: 200, height: 100)
            try TestImages.write(root + "/photo@2x.jpg[strip]", width: 400, height: 200)
            try TestImages.write(root + "/shot.png[strip]", width: 200, height: 100, bands: 4)
            try TestImages.write(root + "/shot@2x.png[strip]", width: 400, height: 200, bands: 4)
            // Noise does not compress: a 2x PNG of several MB.
            var generator = SystemRandomNumberGenerator()
            let noise = (0..<(1000 * 700 * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try TestImages.writePixels(Array(noise.prefix(500 * 350 * 3)), width: 500, height: 350, bands: 3, to: root + "/big.png[strip]")
            try TestImages.writePixels(noise, width: 1000, height: 700, bands: 3, to: root + "/big@2x.png[strip]")
            func image(_ name: String, _ format: ImageFormat, css: PixelSize) throws -> Manifest.Image {
                let variants = try [Density(1), Density(2)].map { density in
                    let path = "\(name)\(density.fileSuffix).\(format.fileExtension)"
                    let bytes = try #require(FileManager.default.contents(atPath: root + "/" + path)).count
                    return Manifest.Variant(path: path, density: density, format: format,
                                            size: PixelSize(width: css.width * density.milli / 1000, height: css.height * density.milli / 1000),
                                            bytes: bytes, hash: "\(name)\(density.milli)")
                }
                return Manifest.Image(source: "\(name)@2x.\(format.fileExtension)", path: "\(name).\(format.fileExtension)",
                                      sourceHash: name, sourceDensity: Density(2), cssSize: css, densityIndependent: false,
                                      skippedDensities: [], variants: variants)
            }
            manifest = Manifest(images: [
                try image("photo", .jpeg, css: PixelSize(width: 200, height: 100)),
                try image("shot", .png, css: PixelSize(width: 200, height: 100)),
                try image("big", .png, css: PixelSize(width: 500, height: 350)),
            ])
            try fixture.writeBytes(Manifest.fileName, manifest.encoded())
        }

        func file(_ path: String) throws -> [UInt8] {
            Array(try #require(FileManager.default.contents(atPath: fixture.root + "/" + path)))
        }

        /// What the server must send for `path` at `density`: the file with its EXIF density.
        func withDensity(_ path: String, pixels: PixelSize, css: PixelSize) throws -> [UInt8] {
            let bytes = try file(path)
            let exif = try #require(ExifDensity(pixelSize: pixels, cssSize: css))
            let insertion = try DensityInsertion(inserting: exif, into: path.hasSuffix(".png") ? .png : .jpeg, head: bytes.prefix(DensityInsertion.headLength))
            return insertion.prefix + bytes[insertion.resumeOffset...]
        }

        /// The answer's bytes decoded by libvips: what a browser decodes.
        func decoded(_ bytes: [UInt8], as name: String) throws -> DecodedFile {
            let path = fixture.scratch.path + "/decoded-" + name
            try TestImages.writeBytes(bytes, to: path)
            return try DecodedFile(path)
        }
    }

    /// Runs `body` against a server over a fresh `Site`, over one connection; stops the server after.
    static func serving(timeout: Duration = .seconds(10), _ body: (Site, RawHTTPConnection) async throws -> Void) async throws {
        let site = try Site()
        let running = try await site.fixture.server().start()
        do {
            try await body(site, try RawHTTPConnection(port: running.port, timeout: timeout))
        } catch {
            try? await running.shutdown()
            throw error
        }
        try await running.shutdown()
    }

    /// Runs `body` against the responder of a server over a fresh `Site`, without a socket.
    static func answering(_ body: (Site, ResponderHarness) async throws -> Void) async throws {
        let site = try Site()
        try await body(site, site.fixture.responder())
    }

    @Test("JPEG at 2x: the APP1 EXIF after SOI, its own ETag and length, no Content-DPR; HEAD says the same; 1x untouched")
    func jpeg() async throws {
        try await Self.answering { site, responder in
            let expected = try site.withDensity("photo@2x.jpg", pixels: PixelSize(width: 400, height: 200), css: PixelSize(width: 200, height: 100))
            let file = try site.file("photo@2x.jpg")

            let answer = try await responder.answer("/photo.jpg", [(.secCHDPR, "2")])
            #expect(answer.status == 200)
            #expect(answer.bytes == expected)
            #expect(Array(answer.bytes.prefix(4)) == [0xFF, 0xD8, 0xFF, 0xE1])
            #expect(answer.bytes.count == file.count + 118)
            #expect(answer.header("Content-Length") == String(file.count + 118))
            #expect(answer.header("ETag") == "\"photo2000-2x\"")
            #expect(answer.header("Content-DPR") == nil, "never beside EXIF density: Chromium would apply both")
            #expect(answer.header("Content-Location") == "/photo@2x.jpg")
            #expect(answer.header("Vary") == "Sec-CH-DPR")
            let decoded = try site.decoded(answer.bytes, as: "photo.jpg")
            let original = try DecodedFile(site.fixture.root + "/photo@2x.jpg")
            #expect(decoded.width == 400 && decoded.pixels == original.pixels, "the answer decodes to the variant's pixels")

            let head = try await responder.answer("/photo.jpg", method: .head, [(.secCHDPR, "2")])
            #expect(head.header("Content-Length") == String(expected.count))
            #expect(head.header("ETag") == "\"photo2000-2x\"")

            let oneX = try await responder.answer("/photo.jpg", [(.secCHDPR, "1")])
            #expect(oneX.bytes == (try site.file("photo.jpg")), "1x: the file as it is")
            #expect(oneX.header("ETag") == "\"photo1000\"")
            #expect(oneX.header("Content-DPR") == nil)

            let explicit = try await responder.answer("/photo@2x.jpg", [(.secCHDPR, "2")])
            #expect(explicit.bytes == file, "an explicit variant URL (srcset, CSS) never carries the density")
        }
    }

    @Test("ranges are ranges of the answer with EXIF: across the insertion, in the file, If-Range, 416")
    func ranges() async throws {
        try await Self.answering { site, responder in
            let expected = try site.withDensity("photo@2x.jpg", pixels: PixelSize(width: 400, height: 200), css: PixelSize(width: 200, height: 100))
            for (range, bytes) in [("0-9", 0...9), ("100-199", 100...199), ("50-5000", 50...5000), ("-20", (expected.count - 20)...(expected.count - 1))] {
                let part = try await responder.answer("/photo.jpg", [(.secCHDPR, "2"), (.range, "bytes=\(range)")])
                #expect(part.status == 206, "bytes=\(range)")
                #expect(part.bytes == Array(expected[bytes]), "bytes=\(range)")
                #expect(part.header("Content-Range") == "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(expected.count)")
            }
            let matching = try await responder.answer("/photo.jpg", [(.secCHDPR, "2"), (.range, "bytes=0-3"), (.ifRange, "\"photo2000-2x\"")])
            #expect(matching.status == 206)
            let plainTag = try await responder.answer("/photo.jpg", [(.secCHDPR, "2"), (.range, "bytes=0-3"), (.ifRange, "\"photo2000\"")])
            #expect(plainTag.status == 200, "the file's own tag names another representation: the whole answer")
            #expect(plainTag.bytes == expected)
            let beyond = try await responder.answer("/photo.jpg", [(.secCHDPR, "2"), (.range, "bytes=\(expected.count)-")])
            #expect(beyond.status == 416)
            #expect(beyond.header("Content-Range") == "bytes */\(expected.count)")
        }
    }

    @Test("304: If-None-Match with the answer's tag, not the file's; If-Modified-Since for the variant chosen")
    func notModified() async throws {
        try await Self.answering { site, responder in
            let first = try await responder.answer("/photo.jpg", [(.cookie, "dpr=2")])
            let tag = try #require(first.header("ETag"))
            let same = try await responder.answer("/photo.jpg", [(.cookie, "dpr=2"), (.ifNoneMatch, tag)])
            #expect(same.status == 304)
            #expect(same.header("ETag") == tag)
            #expect(same.header("Content-DPR") == nil)
            let fileTag = try await responder.answer("/photo.jpg", [(.cookie, "dpr=2"), (.ifNoneMatch, "\"photo2000\"")])
            #expect(fileTag.status == 200, "a client holding the file without EXIF does not hold this answer")
            let since = try await responder.answer("/photo.jpg", [(.cookie, "dpr=2"), (.ifModifiedSince, try #require(first.header("Last-Modified")))])
            #expect(since.status == 304)
            let earlier = try await responder.answer("/photo.jpg", [(.cookie, "dpr=2"), (.ifModifiedSince, "Thu, 01 Jan 1970 00:00:00 GMT")])
            #expect(earlier.status == 200)
            #expect(earlier.bytes == first.bytes)
        }
    }

    @Test("PNG: eXIf for a client without hints (Firefox reads it), Content-DPR for one with hints (Chromium does not)")
    func png() async throws {
        try await Self.answering { site, responder in
            let expected = try site.withDensity("shot@2x.png", pixels: PixelSize(width: 400, height: 200), css: PixelSize(width: 200, height: 100))

            let cookie = try await responder.answer("/shot.png", [(.cookie, "dpr=2")])
            #expect(cookie.bytes == expected)
            #expect(Array(cookie.bytes[37..<41]) == Array("eXIf".utf8), "right after IHDR")
            #expect(cookie.header("Content-DPR") == nil)
            #expect(cookie.header("ETag") == "\"shot2000-2x\"")
            #expect(cookie.header("Cache-Control") == "private, no-cache")
            let decoded = try site.decoded(cookie.bytes, as: "shot.png")
            let original = try DecodedFile(site.fixture.root + "/shot@2x.png")
            #expect(decoded.width == 400 && decoded.pixels == original.pixels, "the answer decodes to the variant's pixels")

            let hinted = try await responder.answer("/shot.png", [(.secCHDPR, "2")])
            #expect(hinted.bytes == (try site.file("shot@2x.png")))
            #expect(hinted.header("Content-DPR") == "2")
            #expect(hinted.header("ETag") == "\"shot2000\"")
        }
    }

    @Test("a variant too large for memory is streamed with its EXIF written in front of the rest")
    func largeFile() async throws {
        try await Self.serving(timeout: .seconds(30)) { site, connection in
            let file = try site.file("big@2x.png")
            #expect(file.count > 2 << 20)
            let expected = try site.withDensity("big@2x.png", pixels: PixelSize(width: 1000, height: 700), css: PixelSize(width: 500, height: 350))
            let answer = try await connection.request("/big.png", headers: ["Cookie": "dpr=2"])
            #expect(answer.header("Content-Length") == String(file.count + 120))
            #expect(answer.body == expected)
            let tail = try await connection.request("/big.png", headers: ["Cookie": "dpr=2", "Range": "bytes=20-200000"])
            #expect(tail.body == Array(expected[20...200_000]))
        }
    }
}
