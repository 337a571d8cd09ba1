import DPPXCore
import DPPXServer
import Foundation
import Hummingbird
import Testing

@Suite("dppx serve's inspector shows what quality = \"auto\" chose")
struct ServeInspectorQualityTests {
    @Test("a searched variant's quality, conversion, score, target and bytes against the fixed default are shown; others say fixed or lossless")
    func searchedVariants() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp, .png])
        let path = fixture.root + "/" + Manifest.fileName
        var manifest = try Manifest.decode(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let hero = try #require(manifest.images.firstIndex { $0.path == "images/hero.jpg" })
        for index in manifest.images[hero].variants.indices {
            let variant = manifest.images[hero].variants[index]
            switch (variant.format, variant.density) {
            case (.jpeg, Density(1)):
                manifest.images[hero].variants[index].recordSearch(Manifest.QualitySearchResult(
                    quality: 62, chroma: .subsampled, score: 81.344, target: 80, fixedQualityBytes: variant.bytes * 2))
            case (.webp, Density(2)):
                // Sizes the page only reads: 500 against 400 bytes.
                manifest.images[hero].variants[index].bytes = 500
                manifest.images[hero].variants[index].recordSearch(Manifest.QualitySearchResult(
                    quality: 100, sharpYUV: true, score: 65.1, target: 65.5, fixedQualityBytes: 400))
            case (.webp, Density(1)):
                // Only a JPEG XL is, in a build; the page reads the flag, whatever the format.
                manifest.images[hero].variants[index].lossless = true
            default:
                break
            }
        }
        try fixture.writeBytes(Manifest.fileName, manifest.encoded())
        // The fixture's files are short texts: their sizes show in bytes.
        let jpegFixed = try #require(manifest.images[hero].variants.first { $0.path == "images/hero.jpg" }).bytes * 2
        try #require(jpegFixed < 1000)
        try await fixture.server().test { client in
            let html = try await client.get("/_dppx/").text
            let hero = try #require(Self.section("images/hero.jpg", in: html))
            #expect(hero.contains(#"<th class="number">Score</th><th class="number" title="The score the search aimed at: the target of the variant's density">Target</th><th>Against fixed</th>"#))
            #expect(hero.contains("<td>62, 4:2:0</td><td class=\"number\">81.34</td><td class=\"number\">80</td><td>-50 % against q82 (\(jpegFixed) B)</td>"))
            // A score under its target (no quality reached it) is marked, beside the target.
            #expect(hero.contains(#"<td>100, sharp YUV</td><td class="number missed" title="Under its target at every quality: written at the top one">65.1</td><td class="number">65.5</td><td>+25 % against q80 (400 B)</td>"#))
            #expect(Self.row("images/hero@1.5x.webp", in: hero)?.contains("<td>fixed</td>") == true)
            #expect(Self.row("images/hero.webp", in: hero)?.contains("<td>lossless</td>") == true)
            #expect(Self.row("images/hero@2x.png", in: hero)?.contains("<td>lossless</td>") == true)
            // An image nothing was searched for keeps the plain table.
            let arrow = try #require(Self.section("icons/arrow.svg", in: html))
            #expect(!arrow.contains("Score"))
        }
    }

    @Test("a fixed-quality build's page has no quality columns")
    func fixedBuild() async throws {
        let fixture = try ServerFixture(formats: [.jpeg, .webp])
        try await fixture.server().test { client in
            let html = try await client.get("/_dppx/").text
            #expect(html.contains("images/hero@2x.webp"))
            #expect(!html.contains("Against fixed"))
        }
    }

    /// The `<section>` of the image whose URL path is `path`.
    static func section(_ path: String, in html: String) -> Substring? {
        guard let start = html.range(of: "<section data-image=\"/\(path)\"") else { return nil }
        let end = html[start.upperBound...].range(of: "</section>")?.upperBound ?? html.endIndex
        return html[start.lowerBound..<end]
    }

    /// The table row of one variant.
    static func row(_ path: String, in section: Substring) -> Substring? {
        guard let link = section.range(of: "<a href=\"/\(path)\">") else { return nil }
        let start = section[..<link.lowerBound].range(of: "<tr", options: .backwards)?.lowerBound ?? link.lowerBound
        let end = section[link.upperBound...].range(of: "</tr>")?.upperBound ?? section.endIndex
        return section[start..<end]
    }
}
