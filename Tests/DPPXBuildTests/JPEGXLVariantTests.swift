import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

@Suite("Variants: JPEG XL")
struct JPEGXLVariantTests {
    @Test("a JPEG variant's JXL is its lossless recompression: libjxl's djxl gives the JPEG back byte for byte, in fewer bytes")
    func recompressedJPEG() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("hero.jpg"), width: 800, height: 500, artist: "Jane Photographer")
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.jxl]))
        #expect(report.succeeded, "\(report.failures)")
        let image = try #require(try fixture.manifestOnDisk().images.first)
        let jxl = image.variants(in: .jxl)
        #expect(jxl.map(\.path) == ["hero.jxl", "hero@1.5x.jxl", "hero@2x.jxl"])
        let scratch = ScratchFolder("dppx-djxl")
        for variant in jxl {
            let bytes = try AtomicFile.read(fixture.output(variant.path))
            #expect(variant.bytes == bytes.count && variant.hash == ContentHash.sha256(bytes), "\(variant.path)")
            let jpegPath = variant.path.replacingOccurrences(of: ".jxl", with: ".jpg")
            let jpeg = try AtomicFile.read(fixture.output(jpegPath))
            #expect(variant.size == image.variants.first { $0.path == jpegPath }?.size)
            #expect(variant.lossless == true, "the manifest says \(variant.path) is lossless")
            #expect(image.variants.first { $0.path == jpegPath }?.lossless == nil)
            #expect(bytes.count < jpeg.count, "\(variant.path) is \(bytes.count) bytes, its JPEG \(jpeg.count)")
            let reconstructed = scratch(jpegPath)
            try Self.djxl(fixture.output(variant.path), reconstructed)
            #expect(try AtomicFile.read(reconstructed) == jpeg, "\(variant.path) decodes to \(jpegPath) exactly")
            #expect(Self.boxTypes(bytes).allSatisfy { !["Exif", "xml "].contains($0) }, "\(Self.boxTypes(bytes))")
            #expect(!bytes.contains(subsequence: Array("Jane Photographer".utf8)), "the master's EXIF stays out")
        }
        // Decoded as pixels, it is the JPEG's picture: libjxl's and libjpeg's inverse DCT and
        // chroma upsampling round a few samples apart.
        let decoded = try fixture.decoded("hero@2x.jxl")
        let jpeg = try fixture.decoded("hero@2x.jpg")
        #expect(decoded.loader.hasPrefix("jxlload"))
        #expect((decoded.width, decoded.height, decoded.bands) == (jpeg.width, jpeg.height, jpeg.bands))
        let differences = zip(decoded.pixels, jpeg.pixels).map { abs(Int($0) - Int($1)) }
        let mean = Double(differences.reduce(0, +)) / Double(max(1, differences.count))
        #expect(mean < 0.5 && (differences.max() ?? 0) <= 8, "mean difference \(mean), largest \(differences.max() ?? 0)")
    }

    @Test("a PNG master's JXL is lossless, alpha kept; --jxl-quality makes it lossy and smaller")
    func pngPixels() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("badge.png"), width: 300, height: 200, bands: 4)
        #expect(try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.jxl])).succeeded)
        for density in ["", "@1.5x", "@2x"] {
            let png = try fixture.decoded("badge\(density).png")
            let jxl = try fixture.decoded("badge\(density).jxl")
            #expect(jxl.bands == 4 && (jxl.width, jxl.height) == (png.width, png.height))
            #expect(jxl.pixels == png.pixels, "badge\(density).jxl has the PNG's pixels")
        }
        #expect(try fixture.manifestOnDisk().images[0].variants(in: .jxl).allSatisfy { $0.lossless == true })
        let lossless = try AtomicFile.read(fixture.output("badge@2x.jxl")).count

        var options = fixture.options(PlanSettings(sourceDensityGiven: true, extraFormats: [.jxl]))
        options.encode.jxlQuality = 60
        #expect(try Builder(options: options).run().succeeded)
        let lossy = try fixture.decoded("badge@2x.jxl")
        #expect(lossy.bands == 4)
        #expect(lossy.pixels != (try fixture.decoded("badge@2x.png")).pixels)
        #expect(try AtomicFile.read(fixture.output("badge@2x.jxl")).count < lossless)
        #expect(try fixture.manifestOnDisk().images[0].variants(in: .jxl).allSatisfy { $0.lossless == nil }, "lossy: not said")
    }

    @Test("a rule's jxl-quality makes its PNG masters' JXL lossy; other masters stay lossless")
    func ruleQuality() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("badges/ruled.png"), width: 300, height: 200, bands: 4)
        try TestImages.write(fixture.source("plain.png"), width: 300, height: 200, bands: 4)
        let rules = try ProjectFile.settings(parsing: "[[rule]]\nmatch = \"badges/**\"\njxl-quality = 60\n").rules
        #expect(try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.jxl], rules: rules)).succeeded)
        let ruled = try fixture.decoded("badges/ruled@2x.jxl")
        #expect(ruled.pixels != (try fixture.decoded("badges/ruled@2x.png")).pixels, "the rule's quality is lossy")
        #expect(try fixture.decoded("plain@2x.jxl").pixels == (try fixture.decoded("plain@2x.png")).pixels, "no rule: lossless")
    }

    @Test("animated and SVG masters get no JXL, said once each")
    func noJXL() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("spin.gif"), width: 80, height: 60, frames: 3)
        try TestImages.writeBytes(Array(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"/>"#.utf8), to: fixture.source("logo.svg"))
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.jxl]))
        #expect(report.succeeded, "\(report.failures)")
        #expect(!fixture.output.files().contains { $0.hasSuffix(".jxl") })
        for file in ["spin.gif", "logo.svg"] {
            #expect(report.warnings.filter { $0.file == file && $0.reason.contains("no jxl variants") }.count == 1, "\(report.warnings)")
        }
    }

    /// Runs libjxl's `djxl`, which writes the JPEG a JXL holds when it has reconstruction data.
    static func djxl(_ input: String, _ output: String) throws {
        let result = try ChildProcess.run("/usr/bin/djxl", [input, output])
        #expect(result.status == 0, "djxl \(input) failed (scripts/install-deps --test installs libjxl-tools): \(result)")
    }

    /// The top-level box types of a JPEG XL container (`JXL `, `ftyp`, `jbrd`, `jxlc`...);
    /// empty for a bare codestream.
    static func boxTypes(_ bytes: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 0
        guard bytes.count >= 12, bytes[4..<8].elementsEqual("JXL ".utf8) else { return [] }
        while offset + 8 <= bytes.count {
            var size = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self))
            if size == 0 { break }
            if size == 1, offset + 16 <= bytes.count { size = bytes[offset + 8..<offset + 16].reduce(0) { $0 << 8 | Int($1) } }
            guard size >= 8 else { break }
            offset += size
        }
        return types
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard !subsequence.isEmpty, subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<$0 + subsequence.count].elementsEqual(subsequence) }
    }
}
