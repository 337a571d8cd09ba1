import DPPXCore
import DPPXServer
import DPPXTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import Testing

@Suite("dppx serve picks the variant")
struct ServeVariantTests {
    static let d1 = Density(1), d15 = Density(1.5), d2 = Density(2)

    @Test("no hint: the 1x file, with Vary naming every header looked at")
    func noHint() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero.jpg")
        #expect(response.status == .ok)
        #expect(response.text == ServerFixture.heroBody(Self.d1, .jpeg))
        #expect(response.headers[.contentType] == "image/jpeg")
        #expect(response.headers[.vary] == "Sec-CH-DPR, DPR, Cookie")
        #expect(response.headers[.contentDPR] == nil, "1x: nothing to correct")
        #expect(response.headers[.contentLocation] == "/images/hero.jpg")
        #expect(response.headers[.eTag] == ServerFixture.heroETag(Self.d1, .jpeg))
        #expect(response.headers[.cacheControl] == "no-cache")
    }

    @Test("Sec-CH-DPR picks the smallest density at or above it, else the largest", arguments: [
        ("1", "1"), ("1.2", "1.5"), ("1.5", "1.5"), ("1.75", "2"), ("2", "2"), ("3", "2"), ("0.5", "1"),
    ])
    func clientHint(dpr: String, expected: String) async throws {
        let fixture = try ServerFixture()
        let density = try #require(Density(parsing: expected))
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero.jpg", [(.secCHDPR, dpr)])
        #expect(response.text == ServerFixture.heroBody(density, .jpeg))
        // The fixture's variants are text, which cannot carry EXIF density: Content-DPR says it above 1x.
        #expect(response.headers[.contentDPR] == (expected == "1" ? nil : expected))
        #expect(response.headers[.vary] == "Sec-CH-DPR")
        #expect(response.headers[.eTag] == ServerFixture.heroETag(density, .jpeg))
        #expect(response.headers[.contentLocation] == "/" + ServerFixture.heroPath(density, .jpeg))
        #expect(response.headers[.cacheControl] == "no-cache")
    }

    @Test("sources in order: ?dpr=, Sec-CH-DPR, DPR, cookie")
    func sourceOrder() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let query = try await responder.answer("/images/hero.jpg?dpr=2", [(.secCHDPR, "1"), (.dprHint, "1"), (.cookie, "dpr=1")])
        #expect(query.headers[.contentDPR] == "2")
        #expect(query.headers[.vary] == nil)

        let hint = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "1.5"), (.dprHint, "1"), (.cookie, "dpr=1")])
        #expect(hint.headers[.contentDPR] == "1.5")
        #expect(hint.headers[.vary] == "Sec-CH-DPR")

        let legacy = try await responder.answer("/images/hero.jpg", [(.dprHint, "2"), (.cookie, "dpr=1")])
        #expect(legacy.headers[.contentDPR] == "2")
        #expect(legacy.headers[.vary] == "Sec-CH-DPR, DPR")
        #expect(legacy.headers[.cacheControl] == "no-cache")
    }

    @Test("a choice made from the dpr cookie is private to the browser")
    func cookieIsPrivate() async throws {
        let fixture = try ServerFixture()
        let policy = try CachePolicy(parsing: "public, max-age=600")
        let responder = fixture.responder(cachePolicy: policy)
        let response = try await responder.answer("/images/hero.jpg", [(.cookie, "theme=dark; dpr=2")])
        #expect(response.headers[.contentDPR] == "2")
        #expect(response.headers[.vary] == "Sec-CH-DPR, DPR, Cookie")
        #expect(response.headers[.cacheControl] == "private, max-age=600")
        let hinted = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2")])
        #expect(hinted.headers[.cacheControl] == "public, max-age=600")
    }

    @Test("malformed hints are ignored: the 1x file, never an error", arguments: [
        "abc", "-1", "0", "NaN", "1e400", "", "1,2", "2x", "Infinity", String(repeating: "9", count: 5000),
    ])
    func malformedHints(value: String) async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        for headers: [(HTTPField.Name, String)] in [[(.secCHDPR, value)], [(.dprHint, value)], [(.cookie, "dpr=\(value)")]] {
            let response = try await responder.answer("/images/hero.jpg", headers)
            #expect(response.status == .ok)
            #expect(response.headers[.contentLocation] == "/images/hero.jpg")
        }
        let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let query = try await responder.answer("/images/hero.jpg?dpr=\(encoded)")
        #expect(query.status == .ok)
        #expect(query.headers[.contentLocation] == "/images/hero.jpg")
    }

    @Test("a hint header sent twice counts as a list and is ignored")
    func repeatedHint() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.secCHDPR, "1.5")])
        #expect(response.headers[.contentLocation] == "/images/hero.jpg")
    }

    @Test("Accept picks AVIF, then WebP, then the master's format")
    func formats() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp, .avif])
        let chromium = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let responder = fixture.responder()
        let avif = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.accept, chromium)])
        #expect(avif.text == ServerFixture.heroBody(Self.d2, .avif))
        #expect(avif.headers[.contentType] == "image/avif")
        #expect(avif.headers[.vary] == "Sec-CH-DPR, Accept")
        #expect(avif.headers[.eTag] == ServerFixture.heroETag(Self.d2, .avif))

        let webp = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "1"), (.accept, "image/webp,*/*")])
        #expect(webp.headers[.contentType] == "image/webp")
        #expect(webp.headers[.contentLocation] == "/images/hero.webp")

        let curl = try await responder.answer("/images/hero.jpg", [(.accept, "*/*")])
        #expect(curl.headers[.contentType] == "image/jpeg")
        #expect(curl.headers[.vary] == "Sec-CH-DPR, DPR, Cookie, Accept")

        let weighted = try await responder.answer("/images/hero.jpg", [(.accept, "image/avif;q=0.4,image/webp;q=0.9,*/*;q=0.1")])
        #expect(weighted.headers[.contentType] == "image/webp")

        let refused = try await responder.answer("/images/hero.jpg", [(.accept, "image/avif;q=0,image/webp;q=0,*/*")])
        #expect(refused.headers[.contentType] == "image/jpeg")
    }

    @Test("each variant has its own ETag: If-None-Match validates only the variant it names")
    func entityTags() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let one = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "1")])
        let two = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2")])
        let oneTag = try #require(one.headers[.eTag])
        let twoTag = try #require(two.headers[.eTag])
        #expect(oneTag != twoTag)

        let same = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, twoTag)])
        #expect(same.status == .notModified)
        #expect(same.body.readableBytes == 0)
        #expect(same.headers[.eTag] == twoTag)
        #expect(same.headers[.vary] == "Sec-CH-DPR")
        #expect(same.headers[.contentDPR] == "2")

        let weak = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, "\"x\", W/\(twoTag)")])
        #expect(weak.status == .notModified)

        // The 1x copy a browser holds must not be revalidated for a 2x screen.
        let other = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, oneTag)])
        #expect(other.status == .ok)
        #expect(other.text == ServerFixture.heroBody(Self.d2, .jpeg))
    }

    @Test("If-Modified-Since validates the variant the same request headers choose")
    func ifModifiedSince() async throws {
        let fixture = try ServerFixture()
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)],
                                              ofItemAtPath: fixture.root + "/" + ServerFixture.heroPath(Self.d1, .jpeg))
        let responder = fixture.responder()
        let oneX = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "1")])
        let oneXDate = try #require(oneX.headers[.lastModified])
        let same = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "1"), (.ifModifiedSince, oneXDate)])
        #expect(same.status == .notModified)
        #expect(same.headers[.eTag] == ServerFixture.heroETag(Self.d1, .jpeg))
        // The 2x file, chosen for DPR 2, is newer than the 1x copy's date: sent whole.
        let twoX = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.ifModifiedSince, oneXDate)])
        #expect(twoX.status == .ok)
        #expect(twoX.text == ServerFixture.heroBody(Self.d2, .jpeg))
        let twoXSame = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.ifModifiedSince, try #require(twoX.headers[.lastModified]))])
        #expect(twoXSame.status == .notModified)
        // Plain files still answer If-Modified-Since.
        let css = try await responder.answer("/style.css")
        let again = try await responder.answer("/style.css", [(.ifModifiedSince, try #require(css.headers[.lastModified]))])
        #expect(again.status == .notModified)
    }

    @Test("HEAD of a negotiated image: the variant's headers, no body")
    func head() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero.jpg", method: .head, [(.secCHDPR, "2")])
        #expect(response.status == .ok)
        #expect(response.body.readableBytes == 0)
        #expect(response.headers[.contentLength] == String(ServerFixture.heroBody(Self.d2, .jpeg).utf8.count))
        #expect(response.headers[.contentDPR] == "2")
        #expect(response.headers[.eTag] == ServerFixture.heroETag(Self.d2, .jpeg))
    }

    @Test("Range on a negotiated image, with If-Range naming this variant or another")
    func ranges() async throws {
        let fixture = try ServerFixture()
        let body = ServerFixture.heroBody(Self.d2, .jpeg)
        let tag = ServerFixture.heroETag(Self.d2, .jpeg)
        let responder = fixture.responder()
        let part = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=0-5")])
        #expect(part.status == .partialContent)
        #expect(part.text == String(body.prefix(6)))
        #expect(part.headers[.contentRange] == "bytes 0-5/\(body.utf8.count)")
        #expect(part.headers[.contentDPR] == "2")

        let matching = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=2-3"), (.ifRange, tag)])
        #expect(matching.status == .partialContent)

        let stale = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=2-3"),
                                                              (.ifRange, ServerFixture.heroETag(Self.d1, .jpeg))])
        #expect(stale.status == .ok)
        #expect(stale.text == body)
    }

    @Test("an explicit variant URL is served as it is")
    func explicitVariant() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero@2x.jpg", [(.secCHDPR, "1")])
        #expect(response.text == ServerFixture.heroBody(Self.d2, .jpeg))
        #expect(response.headers[.vary] == nil)
        #expect(response.headers[.contentDPR] == nil)
        #expect(response.headers[.contentLocation] == nil)
    }

    @Test("a vector image is the same at every density: nothing negotiated")
    func vector() async throws {
        let fixture = try ServerFixture()
        let responder = fixture.responder()
        let response = try await responder.answer("/icons/arrow.svg", [(.secCHDPR, "3")])
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "image/svg+xml")
        #expect(response.headers[.vary] == nil)
        #expect(response.headers[.contentDPR] == nil)
    }

    @Test("a variant whose file no longer matches the manifest keeps its bytes but loses the hash ETag")
    func staleManifest() async throws {
        let fixture = try ServerFixture()
        try fixture.write(ServerFixture.heroPath(Self.d2, .jpeg), "rewritten by a build in progress")
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, ServerFixture.heroETag(Self.d2, .jpeg))])
        #expect(response.status == .ok)
        #expect(response.text == "rewritten by a build in progress")
        #expect(response.headers[.eTag] != ServerFixture.heroETag(Self.d2, .jpeg))
        #expect(response.headers[.contentDPR] == "2")
    }

    @Test("a variant corrupted in place at the same size loses the hash ETag: the old tag no longer validates it")
    func corruptedInPlace() async throws {
        let fixture = try ServerFixture()
        let running = try await fixture.server().start()
        let connection = try RawHTTPConnection(port: running.port)
        let strong = ServerFixture.heroETag(Self.d2, .jpeg)
        #expect(try await connection.request("/images/hero.jpg", headers: ["Sec-CH-DPR": "2"]).header("ETag") == strong)
        // Later than the manifest by more than the file system's clock step.
        try await Task.sleep(for: .milliseconds(30))
        let path = fixture.root + "/" + ServerFixture.heroPath(Self.d2, .jpeg)
        let body = ServerFixture.heroBody(Self.d2, .jpeg)
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data(String(repeating: "X", count: body.utf8.count).utf8))
        try handle.close()
        let answer = try await connection.request("/images/hero.jpg", headers: ["Sec-CH-DPR": "2", "If-None-Match": strong])
        #expect(answer.status == 200, "the old strong tag validated the corrupted bytes")
        #expect(answer.header("ETag")?.hasPrefix("W/") == true, "\(answer.header("ETag") ?? "none")")
        #expect(answer.text == String(repeating: "X", count: body.utf8.count))
        try await running.shutdown()
    }

    @Test("a variant file that is missing falls back to the 1x file as it is")
    func missingVariant() async throws {
        let fixture = try ServerFixture()
        try FileManager.default.removeItem(atPath: fixture.root + "/" + ServerFixture.heroPath(Self.d2, .jpeg))
        let responder = fixture.responder()
        let response = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2")])
        #expect(response.status == .ok)
        #expect(response.text == ServerFixture.heroBody(Self.d1, .jpeg))
        #expect(response.headers[.contentDPR] == nil)
        #expect(response.headers[.vary] == "Sec-CH-DPR", "the Vary every answer of this URL has")
        #expect(response.headers[.cacheControl] == "private, no-cache", "no shared cache may keep the fallback (the policy is no-cache)")
    }

    @Test("a new manifest written while serving is picked up")
    func manifestReload() async throws {
        let fixture = try ServerFixture(writeManifest: false)
        let responder = fixture.responder()
        let before = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2")])
        #expect(before.text == ServerFixture.heroBody(Self.d1, .jpeg))
        let rebuilt = try ServerFixture()
        try fixture.writeBytes(Manifest.fileName, Array(try Data(contentsOf: URL(fileURLWithPath: rebuilt.root + "/" + Manifest.fileName))))
        let after = try await responder.answer("/images/hero.jpg", [(.secCHDPR, "2")])
        #expect(after.text == ServerFixture.heroBody(Self.d2, .jpeg))
    }
}

extension ServeVariantTests {
    @Test("Content-DPR never claims a density the pixels do not divide by: a PNG logo with AVIF and no JPEG gets its exact 2x instead of a rounded 1.5x")
    func exactContentDPR() async throws {
        let fixture = try ServerFixture()
        // A 151x101 box: 1.5x is 227x152 (rounded), 2x 302x202 (exact).
        var variants: [Manifest.Variant] = []
        for format in [ImageFormat.png, .avif] {
            for (density, size) in [(Self.d1, PixelSize(width: 151, height: 101)), (Self.d15, PixelSize(width: 227, height: 152)),
                                    (Self.d2, PixelSize(width: 302, height: 202))] {
                let path = "logo\(density.fileSuffix).\(format.fileExtension)"
                // The AVIF files are the smaller: the client takes both formats at its top weight.
                let body = format == .png ? "\(path) body of the larger file" : "\(path) body"
                try fixture.write(path, body)
                variants.append(Manifest.Variant(path: path, density: density, format: format, size: size,
                                                 bytes: body.utf8.count, hash: "\(format.rawValue)\(density.milli)"))
            }
        }
        let logo = Manifest.Image(source: "logo@2x.png", path: "logo.png", sourceHash: "source", sourceDensity: Self.d2,
                                  cssSize: PixelSize(width: 151, height: 101), densityIndependent: false, intent: .name,
                                  skippedDensities: [], variants: variants)
        try fixture.writeBytes(Manifest.fileName, Manifest(images: [logo]).encoded())
        let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        let responder = fixture.responder()
        let answer = try await responder.answer("/logo.png", [(.secCHDPR, "1.5"), (.accept, chromium)])
        #expect(answer.headers[.contentLocation] == "/logo@2x.avif", "\(answer.headers)")
        #expect(answer.headers[.contentDPR] == "2")
        let exact = try await responder.answer("/logo.png", [(.secCHDPR, "2"), (.accept, chromium)])
        #expect(exact.headers[.contentLocation] == "/logo@2x.avif")
    }
}
