import DPPXCore
import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@Suite("dppx serve sends the smallest format the client accepts")
struct ServeSmallestFormatTests {
    static let chromium = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
    static let firefox = "image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5"

    /// ROOT with `photo.jpg` at 1x and 2x of a 400x250 box in JPEG, AVIF and JPEG XL, each file
    /// `bytes[format]` bytes long (times the density), listed in the manifest with those sizes.
    static func fixture(_ bytes: [ImageFormat: Int]) throws -> ServerFixture {
        let fixture = try ServerFixture(writeManifest: false)
        var variants: [Manifest.Variant] = []
        for density in [Density(1), Density(2)] {
            for (format, size) in bytes {
                let path = "photo\(density.fileSuffix).\(format.fileExtension)"
                let body = Array(repeating: UInt8(ascii: "x"), count: size * density.milli / 1000)
                try fixture.writeBytes(path, body)
                variants.append(Manifest.Variant(path: path, density: density, format: format,
                                                 size: PixelSize(width: 400 * density.milli / 1000, height: 250 * density.milli / 1000),
                                                 bytes: body.count, hash: "\(format.rawValue)\(density.milli)0000000000"))
            }
        }
        let photo = Manifest.Image(source: "photo.jpg", path: "photo.jpg", sourceHash: "source", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: 400, height: 250), densityIndependent: false,
                                   skippedDensities: [], variants: variants)
        try fixture.writeBytes(Manifest.fileName, Manifest(images: [photo]).encoded())
        return fixture
    }

    @Test("AVIF smaller than JPEG XL: Chromium gets the AVIF, at the density it asked for")
    func avifSmaller() async throws {
        let fixture = try Self.fixture([.jpeg: 1000, .avif: 300, .jxl: 700])
        try await fixture.server().test { client in
            let answer = try await client.get("/photo.jpg", [(.secCHDPR, "2"), (.accept, Self.chromium)])
            #expect(answer.headers[.contentType] == "image/avif")
            #expect(answer.headers[.contentLocation] == "/photo@2x.avif")
            #expect(answer.body.readableBytes == 600)
            #expect(answer.headers[.vary]?.contains("Accept") == true)
        }
    }

    @Test("JPEG XL smaller than AVIF: Chromium gets the JXL with Content-DPR; Firefox, which does not name it, the AVIF")
    func jxlSmaller() async throws {
        let fixture = try Self.fixture([.jpeg: 1000, .avif: 800, .jxl: 700])
        let responder = fixture.responder()
        let chromium = try await responder.answer("/photo.jpg", [(.secCHDPR, "2"), (.accept, Self.chromium)])
        #expect(chromium.headers[.contentType] == "image/jxl")
        #expect(chromium.headers[.contentLocation] == "/photo@2x.jxl")
        #expect(chromium.body.readableBytes == 1400)
        #expect(chromium.headers[.contentDPR] == "2")
        #expect(chromium.headers[.vary] == "Sec-CH-DPR, Accept")

        let oneX = try await responder.answer("/photo.jpg", [(.secCHDPR, "1"), (.accept, Self.chromium)])
        #expect(oneX.headers[.contentLocation] == "/photo.jxl")
        #expect(oneX.headers[.contentDPR] == nil)

        let firefox = try await responder.answer("/photo.jpg", [(.accept, Self.firefox)])
        #expect(firefox.headers[.contentType] == "image/avif")
        #expect(firefox.headers[.contentLocation] == "/photo.avif")

        let explicit = try await responder.answer("/photo@2x.jxl")
        #expect(explicit.headers[.contentType] == "image/jxl")
    }
}
