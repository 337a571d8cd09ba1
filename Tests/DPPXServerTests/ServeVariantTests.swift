import DPPXCore
import DPPXServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("dppx serve picks the variant")
struct ServeVariantTests {
    static let d1 = Density(1), d15 = Density(1.5), d2 = Density(2)

    @Test("no hint: the 1x file, with Vary naming every header looked at")
    func noHint() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg")
            #expect(response.status == .ok)
            #expect(response.text == ServerFixture.heroBody(Self.d1, .jpeg))
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[.vary] == "Sec-CH-DPR, DPR, Cookie")
            #expect(response.headers[.contentDPR] == "1")
            #expect(response.headers[.contentLocation] == "/images/hero.jpg")
            #expect(response.headers[.eTag] == ServerFixture.heroETag(Self.d1, .jpeg))
            #expect(response.headers[.cacheControl] == "no-cache")
        }
    }

    @Test("Sec-CH-DPR picks the smallest density at or above it, else the largest", arguments: [
        ("1", "1"), ("1.2", "1.5"), ("1.5", "1.5"), ("1.75", "2"), ("2", "2"), ("3", "2"), ("0.5", "1"),
    ])
    func clientHint(dpr: String, expected: String) async throws {
        let fixture = try ServerFixture()
        let density = try #require(Density(parsing: expected))
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg", [(.secCHDPR, dpr)])
            #expect(response.text == ServerFixture.heroBody(density, .jpeg))
            #expect(response.headers[.contentDPR] == expected)
            #expect(response.headers[.vary] == "Sec-CH-DPR")
            #expect(response.headers[.eTag] == ServerFixture.heroETag(density, .jpeg))
            #expect(response.headers[.contentLocation] == "/" + ServerFixture.heroPath(density, .jpeg))
            #expect(response.headers[.cacheControl] == "no-cache")
        }
    }

    @Test("sources in order: ?dpr=, Sec-CH-DPR, DPR, cookie")
    func sourceOrder() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let query = try await client.get("/images/hero.jpg?dpr=2", [(.secCHDPR, "1"), (.dprHint, "1"), (.cookie, "dpr=1")])
            #expect(query.headers[.contentDPR] == "2")
            #expect(query.headers[.vary] == nil)

            let hint = try await client.get("/images/hero.jpg", [(.secCHDPR, "1.5"), (.dprHint, "1"), (.cookie, "dpr=1")])
            #expect(hint.headers[.contentDPR] == "1.5")
            #expect(hint.headers[.vary] == "Sec-CH-DPR")

            let legacy = try await client.get("/images/hero.jpg", [(.dprHint, "2"), (.cookie, "dpr=1")])
            #expect(legacy.headers[.contentDPR] == "2")
            #expect(legacy.headers[.vary] == "Sec-CH-DPR, DPR")
            #expect(legacy.headers[.cacheControl] == "no-cache")
        }
    }

    @Test("a choice made from the dpr cookie is private to the browser")
    func cookieIsPrivate() async throws {
        let fixture = try ServerFixture()
        let policy = try CachePolicy(parsing: "public, max-age=600")
        try await fixture.server(cachePolicy: policy).makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg", [(.cookie, "theme=dark; dpr=2")])
            #expect(response.headers[.contentDPR] == "2")
            #expect(response.headers[.vary] == "Sec-CH-DPR, DPR, Cookie")
            #expect(response.headers[.cacheControl] == "private, max-age=600")
            let hinted = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            #expect(hinted.headers[.cacheControl] == "public, max-age=600")
        }
    }

    @Test("malformed hints are ignored: the 1x file, never an error", arguments: [
        "abc", "-1", "0", "NaN", "1e400", "", "1,2", "2x", "Infinity", String(repeating: "9", count: 5000),
    ])
    func malformedHints(value: String) async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            for headers: [(HTTPField.Name, String)] in [[(.secCHDPR, value)], [(.dprHint, value)], [(.cookie, "dpr=\(value)")]] {
                let response = try await client.get("/images/hero.jpg", headers)
                #expect(response.status == .ok)
                #expect(response.headers[.contentDPR] == "1")
            }
            let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let query = try await client.get("/images/hero.jpg?dpr=\(encoded)")
            #expect(query.status == .ok)
            #expect(query.headers[.contentDPR] == "1")
        }
    }

    @Test("a hint header sent twice counts as a list and is ignored")
    func repeatedHint() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.secCHDPR, "1.5")])
            #expect(response.headers[.contentDPR] == "1")
        }
    }

    @Test("Accept picks AVIF, then WebP, then the master's format")
    func formats() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp, .avif])
        let chromium = "image/jxl,image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
        try await fixture.server().makeApplication().test(.live) { client in
            let avif = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.accept, chromium)])
            #expect(avif.text == ServerFixture.heroBody(Self.d2, .avif))
            #expect(avif.headers[.contentType] == "image/avif")
            #expect(avif.headers[.vary] == "Sec-CH-DPR, Accept")
            #expect(avif.headers[.eTag] == ServerFixture.heroETag(Self.d2, .avif))

            let webp = try await client.get("/images/hero.jpg", [(.secCHDPR, "1"), (.accept, "image/webp,*/*")])
            #expect(webp.headers[.contentType] == "image/webp")
            #expect(webp.headers[.contentLocation] == "/images/hero.webp")

            let curl = try await client.get("/images/hero.jpg", [(.accept, "*/*")])
            #expect(curl.headers[.contentType] == "image/jpeg")
            #expect(curl.headers[.vary] == "Sec-CH-DPR, DPR, Cookie, Accept")

            let weighted = try await client.get("/images/hero.jpg", [(.accept, "image/avif;q=0.4,image/webp;q=0.9,*/*;q=0.1")])
            #expect(weighted.headers[.contentType] == "image/webp")

            let refused = try await client.get("/images/hero.jpg", [(.accept, "image/avif;q=0,image/webp;q=0,*/*")])
            #expect(refused.headers[.contentType] == "image/jpeg")
        }
    }

    @Test("each variant has its own ETag: If-None-Match validates only the variant it names")
    func entityTags() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let one = try await client.get("/images/hero.jpg", [(.secCHDPR, "1")])
            let two = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            let oneTag = try #require(one.headers[.eTag])
            let twoTag = try #require(two.headers[.eTag])
            #expect(oneTag != twoTag)

            let same = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, twoTag)])
            #expect(same.status == .notModified)
            #expect(same.body.readableBytes == 0)
            #expect(same.headers[.eTag] == twoTag)
            #expect(same.headers[.vary] == "Sec-CH-DPR")
            #expect(same.headers[.contentDPR] == "2")

            let weak = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, "\"x\", W/\(twoTag)")])
            #expect(weak.status == .notModified)

            // The 1x copy a browser holds must not be revalidated for a 2x screen.
            let other = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, oneTag)])
            #expect(other.status == .ok)
            #expect(other.text == ServerFixture.heroBody(Self.d2, .jpeg))
        }
    }

    @Test("If-Modified-Since cannot validate a negotiated image: all variants share a build time")
    func ifModifiedSinceIgnored() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let first = try await client.get("/images/hero.jpg", [(.secCHDPR, "1")])
            let modified = try #require(first.headers[.lastModified])
            let second = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.ifModifiedSince, modified)])
            #expect(second.status == .ok)
            #expect(second.text == ServerFixture.heroBody(Self.d2, .jpeg))
            // Plain files still answer If-Modified-Since.
            let css = try await client.get("/style.css")
            let again = try await client.get("/style.css", [(.ifModifiedSince, try #require(css.headers[.lastModified]))])
            #expect(again.status == .notModified)
        }
    }

    @Test("HEAD of a negotiated image: the variant's headers, no body")
    func head() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg", method: .head, [(.secCHDPR, "2")])
            #expect(response.status == .ok)
            #expect(response.body.readableBytes == 0)
            #expect(response.headers[.contentLength] == String(ServerFixture.heroBody(Self.d2, .jpeg).utf8.count))
            #expect(response.headers[.contentDPR] == "2")
            #expect(response.headers[.eTag] == ServerFixture.heroETag(Self.d2, .jpeg))
        }
    }

    @Test("Range on a negotiated image, with If-Range naming this variant or another")
    func ranges() async throws {
        let fixture = try ServerFixture()
        let body = ServerFixture.heroBody(Self.d2, .jpeg)
        let tag = ServerFixture.heroETag(Self.d2, .jpeg)
        try await fixture.server().makeApplication().test(.live) { client in
            let part = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=0-5")])
            #expect(part.status == .partialContent)
            #expect(part.text == String(body.prefix(6)))
            #expect(part.headers[.contentRange] == "bytes 0-5/\(body.utf8.count)")
            #expect(part.headers[.contentDPR] == "2")

            let matching = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=2-3"), (.ifRange, tag)])
            #expect(matching.status == .partialContent)

            let stale = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.range, "bytes=2-3"),
                                                                  (.ifRange, ServerFixture.heroETag(Self.d1, .jpeg))])
            #expect(stale.status == .ok)
            #expect(stale.text == body)
        }
    }

    @Test("an explicit variant URL is served as it is")
    func explicitVariant() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero@2x.jpg", [(.secCHDPR, "1")])
            #expect(response.text == ServerFixture.heroBody(Self.d2, .jpeg))
            #expect(response.headers[.vary] == nil)
            #expect(response.headers[.contentDPR] == nil)
            #expect(response.headers[.contentLocation] == nil)
        }
    }

    @Test("a vector image is the same at every density: nothing negotiated")
    func vector() async throws {
        let fixture = try ServerFixture()
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/icons/arrow.svg", [(.secCHDPR, "3")])
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/svg+xml")
            #expect(response.headers[.vary] == nil)
            #expect(response.headers[.contentDPR] == nil)
        }
    }

    @Test("a variant whose file no longer matches the manifest keeps its bytes but loses the hash ETag")
    func staleManifest() async throws {
        let fixture = try ServerFixture()
        try fixture.write(ServerFixture.heroPath(Self.d2, .jpeg), "rewritten by a build in progress")
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg", [(.secCHDPR, "2"), (.ifNoneMatch, ServerFixture.heroETag(Self.d2, .jpeg))])
            #expect(response.status == .ok)
            #expect(response.text == "rewritten by a build in progress")
            #expect(response.headers[.eTag] != ServerFixture.heroETag(Self.d2, .jpeg))
            #expect(response.headers[.contentDPR] == "2")
        }
    }

    @Test("a variant file that is missing falls back to the 1x file as it is")
    func missingVariant() async throws {
        let fixture = try ServerFixture()
        try FileManager.default.removeItem(atPath: fixture.root + "/" + ServerFixture.heroPath(Self.d2, .jpeg))
        try await fixture.server().makeApplication().test(.live) { client in
            let response = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            #expect(response.status == .ok)
            #expect(response.text == ServerFixture.heroBody(Self.d1, .jpeg))
            #expect(response.headers[.contentDPR] == nil)
        }
    }

    @Test("a new manifest written while serving is picked up")
    func manifestReload() async throws {
        let fixture = try ServerFixture(writeManifest: false)
        try await fixture.server().makeApplication().test(.live) { client in
            let before = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            #expect(before.text == ServerFixture.heroBody(Self.d1, .jpeg))
            let rebuilt = try ServerFixture()
            try fixture.writeBytes(Manifest.fileName, Array(try Data(contentsOf: URL(fileURLWithPath: rebuilt.root + "/" + Manifest.fileName))))
            let after = try await client.get("/images/hero.jpg", [(.secCHDPR, "2")])
            #expect(after.text == ServerFixture.heroBody(Self.d2, .jpeg))
        }
    }
}
