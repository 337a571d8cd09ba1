import DPPXCore
import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@Suite("dppx serve picks a fluid image's width")
struct ServeFluidTests {
    static let widths = [480, 960, 1440, 2400]
    static let secCHWidth = HTTPField.Name("Sec-CH-Width")!
    static let viewportWidth = HTTPField.Name("Sec-CH-Viewport-Width")!

    static func path(_ width: Int, _ format: ImageFormat = .jpeg) -> String {
        width == widths.last! ? "images/card.\(format.fileExtension)" : "images/card-\(width)w.\(format.fileExtension)"
    }

    static func body(_ width: Int, _ format: ImageFormat = .jpeg) -> String { "\(path(width, format)) \(width) px" }

    /// A ROOT whose manifest lists `images/card.jpg` as a fluid image at `widths`.
    static func fixture(formats: [ImageFormat] = [.jpeg]) throws -> ServerFixture {
        let fixture = try ServerFixture(writeManifest: false)
        var variants: [Manifest.Variant] = []
        for width in widths {
            for format in formats {
                try fixture.write(path(width, format), body(width, format))
                variants.append(Manifest.Variant(path: path(width, format), density: Density(milli: width * 1000 / 2400), format: format,
                                                 size: PixelSize(width: width, height: width / 2),
                                                 bytes: body(width, format).utf8.count, hash: "\(format.rawValue)\(width)"))
            }
        }
        let card = Manifest.Image(source: "images/card.jpg", path: "images/card.jpg", sourceHash: "source", sourceDensity: Density(1),
                                  cssSize: PixelSize(width: 2400, height: 1200), densityIndependent: false, fluid: true,
                                  intent: .rule, skippedDensities: [], variants: variants)
        try fixture.writeBytes(Manifest.fileName, Manifest(images: [card]).encoded())
        return fixture
    }

    @Test("Sec-CH-Width (device px) picks the smallest width at least as wide, else the largest; no density is said",
          arguments: [("1", 480), ("480", 480), ("481", 960), ("1000", 1440), ("2400", 2400), ("9000", 2400)])
    func secCHWidth(hint: String, expected: Int) async throws {
        let fixture = try Self.fixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/card.jpg", [(Self.secCHWidth, hint), (.secCHDPR, "3")])
        #expect(response.status == .ok)
        #expect(response.text == Self.body(expected))
        #expect(response.headers[.vary] == "Sec-CH-Width")
        #expect(response.headers[.contentDPR] == nil)
        #expect(response.headers[.contentLocation] == "/" + Self.path(expected))
        #expect(response.headers[.eTag] == "\"jpeg\(expected)\"")
    }

    @Test("without Sec-CH-Width: the viewport width times the DPR, snapped up to the ladder")
    func viewport() async throws {
        let fixture = try Self.fixture()
        let responder = fixture.responder()
        let phone = try await responder.answer("/images/card.jpg", [(Self.viewportWidth, "375"), (.secCHDPR, "3")])
        #expect(phone.text == Self.body(1440), "375 x 3 = 1125")
        #expect(phone.headers[.vary] == "Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR")
        #expect(phone.headers[.contentDPR] == nil)
        let desktop = try await responder.answer("/images/card.jpg", [(Self.viewportWidth, "400")])
        #expect(desktop.text == Self.body(480))
        #expect(desktop.headers[.vary] == "Sec-CH-Width, Sec-CH-Viewport-Width, Sec-CH-DPR, DPR, Cookie")
    }

    @Test("without hints: the vw cookie times the dpr cookie, private; nothing at all: the full-HD default")
    func cookieAndDefault() async throws {
        let policy = try CachePolicy(parsing: "public, max-age=600")
        let fixture = try Self.fixture()
        let responder = fixture.responder(cachePolicy: policy)
        let cookie = try await responder.answer("/images/card.jpg", [(.cookie, "vw=360; dpr=2")])
        #expect(cookie.text == Self.body(960))
        #expect(cookie.headers[.vary] == "Sec-CH-Width, Sec-CH-Viewport-Width, Cookie, Sec-CH-DPR, DPR")
        #expect(cookie.headers[.cacheControl] == "private, max-age=600")
        let nothing = try await responder.answer("/images/card.jpg")
        #expect(nothing.text == Self.body(2400), "1920 device px rounds up to the 2400 rung")
        #expect(nothing.headers[.vary] == "Sec-CH-Width, Sec-CH-Viewport-Width, Cookie")
        #expect(nothing.headers[.cacheControl] == "public, max-age=600")
        #expect(nothing.headers[.contentDPR] == nil)
    }

    @Test("malformed width hints are ignored: the next source decides, never an error", arguments: [
        "abc", "-1", "0", "", "1.5", "480px", "1,2", "100001", String(repeating: "9", count: 5000),
    ])
    func malformed(hint: String) async throws {
        let fixture = try Self.fixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/card.jpg", [(Self.secCHWidth, hint), (Self.viewportWidth, hint), (.cookie, "vw=\(hint)")])
        #expect(response.status == .ok)
        #expect(response.text == Self.body(2400))
        let fallback = try await responder.answer("/images/card.jpg", [(Self.secCHWidth, hint), (Self.viewportWidth, "700")])
        #expect(fallback.text == Self.body(960))
    }

    @Test("a hint sent twice is malformed too")
    func twice() async throws {
        let fixture = try Self.fixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/card.jpg", [(Self.secCHWidth, "480"), (Self.secCHWidth, "2400"), (Self.viewportWidth, "1000")])
        #expect(response.text == Self.body(1440))
    }

    @Test("the format is negotiated at the chosen width, and Vary names Accept too")
    func formats() async throws {
        let fixture = try Self.fixture(formats: [.jpeg, .webp])
        let responder = fixture.responder()
        let response = try await responder.answer("/images/card.jpg", [(Self.secCHWidth, "900"), (.accept, "image/webp,*/*;q=0.8")])
        #expect(response.text == Self.body(960, .webp))
        #expect(response.headers[.contentType] == "image/webp")
        #expect(response.headers[.vary] == "Sec-CH-Width, Accept")
    }

    @Test("a width's own URL is a plain file")
    func explicitURL() async throws {
        let fixture = try Self.fixture()
        try await fixture.server().test { client in
            let response = try await client.get("/images/card-480w.jpg", [(Self.secCHWidth, "2400")])
            #expect(response.text == Self.body(480))
            #expect(response.headers[.vary] == nil)
        }
    }
}
