import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

@Suite("Variants: sizes, formats, orientation and colour")
struct VariantOutputTests {
    @Test("a photo-like 2x JPEG becomes 1x, 1.5x and 2x JPEGs of the right sizes, listed in the manifest")
    func photo() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("hero.jpg"), width: 800, height: 500)
        let report = try fixture.build()
        #expect(report.succeeded)
        #expect(report.built == ["hero.jpg"])
        let expected = [("hero.jpg", 400, 250), ("hero@1.5x.jpg", 600, 375), ("hero@2x.jpg", 800, 500)]
        for (path, width, height) in expected {
            let file = try fixture.decoded(path)
            #expect((file.width, file.height) == (width, height), "\(path)")
            #expect(file.loader.hasPrefix("jpegload"))
            #expect(file.interpretation == "srgb")
            #expect(file.orientation == nil, "metadata is stripped")
            #expect(file.brightQuadrant == .topLeft)
        }
        let image = try #require(try fixture.manifestOnDisk().images.first)
        #expect(image.source == "hero.jpg")
        #expect(image.path == "hero.jpg")
        #expect(image.cssSize == PixelSize(width: 400, height: 250))
        #expect(image.sourceDensity == Density(2))
        for variant in image.variants {
            let bytes = try AtomicFile.read(fixture.output(variant.path))
            #expect(variant.bytes == bytes.count)
            #expect(variant.hash == ContentHash.sha256(bytes))
            #expect(variant.format == .jpeg)
        }
        #expect(image.variants.map(\.density) == [Density(1), Density(1.5), Density(2)])
    }

    @Test("odd master sizes follow the documented rounding rule")
    func oddSize() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("odd.png"), width: 301, height: 201)
        try fixture.build()
        #expect(try (fixture.decoded("odd.png").width, fixture.decoded("odd.png").height) == (151, 101))
        #expect(try fixture.decoded("odd@1.5x.png").width == 227)
        #expect(try fixture.decoded("odd@2x.png").width == 301)
    }

    @Test("alpha is kept in PNG, WebP and AVIF variants")
    func alpha() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("badge.png"), width: 200, height: 200, bands: 4)
        try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp, .avif]))
        for path in ["badge.png", "badge@2x.png", "badge@1.5x.webp", "badge.avif"] {
            let file = try fixture.decoded(path)
            #expect(file.bands == 4, "\(path) keeps its alpha")
            // The radial fade: opaque centre, transparent corners.
            #expect(file.mean(band: 3, x: 0.45...0.55, y: 0.45...0.55) > 200)
            #expect(file.mean(band: 3, x: 0...0.05, y: 0...0.05) < 60)
        }
        #expect(try fixture.decoded("badge.webp").loader.hasPrefix("webpload"))
        #expect(try fixture.decoded("badge@2x.avif").loader.hasPrefix("heifload"))
    }

    @Test("an alpha band that is opaque everywhere is dropped from resized variants; one transparent pixel keeps it")
    func opaqueAlphaDropped() throws {
        let fixture = BuildFixture()
        var pixels = TestImages.photoPixels(width: 200, height: 100, alpha: 255)
        try TestImages.writePixels(pixels, width: 200, height: 100, bands: 4, to: fixture.source("opaque.png"))
        pixels[3] = 0
        try TestImages.writePixels(pixels, width: 200, height: 100, bands: 4, to: fixture.source("holed.png"))
        #expect(try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp])).succeeded)

        for path in ["opaque.png", "opaque@1.5x.png", "opaque.webp", "opaque@2x.webp"] {
            let file = try fixture.decoded(path)
            #expect(file.bands == 3, "\(path) has no alpha band")
            #expect(file.brightQuadrant == .topLeft, "\(path) is the same picture")
        }
        // The own-size PNG is the master's pixel data as it is, alpha band included (a re-encode
        // without it only under recompress-png, MasterBytesTests).
        let own = try #require(try fixture.manifestOnDisk().images.first { $0.source == "opaque.png" }?.variants.first { $0.path == "opaque@2x.png" })
        #expect(own.masterBytes == true)
        #expect(try fixture.decoded("opaque@2x.png").bands == 4)
        // The same colours as the master's, resized: a uniform corner keeps its value.
        let master = try DecodedFile(fixture.source("opaque.png")), small = try fixture.decoded("opaque.png")
        for band in 0..<3 {
            #expect(abs(small.mean(band: band, x: 0.1...0.4, y: 0.1...0.4) - master.mean(band: band, x: 0.1...0.4, y: 0.1...0.4)) < 1)
        }
        for path in ["holed.png", "holed@1.5x.png", "holed.webp"] {
            #expect(try fixture.decoded(path).bands == 4, "\(path) keeps its alpha")
        }
    }

    @Test("resizing with alpha rounds: the colour keeps its level instead of drifting a fraction darker")
    func premultipliedResizeRounds() throws {
        let fixture = BuildFixture()
        let pixels = TestImages.photoPixels(width: 400, height: 300, alpha: 200)
        try TestImages.writePixels(pixels, width: 400, height: 300, bands: 4, to: fixture.source("glass.png"))
        #expect(try fixture.build().succeeded)
        let master = try DecodedFile(fixture.source("glass.png"))
        for path in ["glass.png", "glass@1.5x.png"] {
            let small = try fixture.decoded(path)
            #expect(small.bands == 4)
            for band in 0..<4 {
                // A resize keeps the mean level; truncating after unpremultiplying lowers it by
                // about a fifth of a level.
                let drift = small.mean(band: band, x: 0...1, y: 0...1) - master.mean(band: band, x: 0...1, y: 0...1)
                #expect(abs(drift) < 0.08, "\(path), band \(band): mean moved by \(drift)")
            }
        }
    }

    @Test("EXIF orientation is applied and no rotation tag is left", arguments: [
        (6, DecodedFile.Quadrant.topRight), (3, .bottomRight), (8, .bottomLeft),
    ])
    func orientation(tag: Int, bright: DecodedFile.Quadrant) throws {
        let fixture = BuildFixture()
        // Stored 500x800; orientations 6 and 8 display it as 800x500.
        let stored = tag == 3 ? (800, 500) : (500, 800)
        try TestImages.write(fixture.source("turned.jpg"), width: stored.0, height: stored.1, orientation: tag)
        try fixture.build()
        for (path, width) in [("turned.jpg", 400), ("turned@2x.jpg", 800)] {
            let file = try fixture.decoded(path)
            #expect((file.width, file.height) == (width, width * 5 / 8))
            #expect(file.orientation == nil || file.orientation == 1)
            #expect(file.brightQuadrant == bright)
        }
        #expect(try fixture.manifestOnDisk().images[0].cssSize == PixelSize(width: 400, height: 250))
    }

    @Test("CMYK masters, with and without an embedded profile, become sRGB", arguments: [false, true])
    func cmyk(stripProfile: Bool) throws {
        let fixture = BuildFixture()
        try TestImages.writeCMYK(fixture.source("print.jpg"), width: 400, height: 300, stripProfile: stripProfile)
        let report = try fixture.build()
        #expect(report.succeeded, "\(report.failures)")
        let file = try fixture.decoded("print.jpg")
        #expect(file.bands == 3)
        #expect(file.interpretation == "srgb")
        #expect(file.brightQuadrant == .topLeft)
    }

    @Test("16-bit masters are written as 8-bit")
    func sixteenBit() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("deep.png"), width: 300, height: 200, depth: .sixteen)
        #expect(try DecodedFile(fixture.source("deep.png")).bitsPerSample == 16)
        try fixture.build()
        for path in ["deep.png", "deep@2x.png"] {
            let file = try fixture.decoded(path)
            #expect(file.bitsPerSample == 8)
            #expect(file.brightQuadrant == .topLeft)
        }
    }

    @Test("grey masters stay grey")
    func grey() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("mono.jpg"), width: 300, height: 200, bands: 1)
        try fixture.build()
        let file = try fixture.decoded("mono@1.5x.jpg")
        #expect(file.bands == 1)
        #expect(file.interpretation == "b-w")
    }

    @Test("a 1x master is not upscaled; the masters are summed up in one note, with no warning per master; --upscale allows them")
    func noUpscale() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("small@1x.png"), width: 120, height: 80)
        try TestImages.write(fixture.source("tiny@1x.png"), width: 60, height: 40)
        let report = try fixture.build()
        #expect(fixture.output.files() == ["dppx-manifest.json", "small.png", "tiny.png"])
        #expect(report.warnings.isEmpty, "a stated 1x is not a problem: \(report.warnings)")
        #expect(report.notUpscaledNote == "note: 2 masters stated at their density (such as small@1x.png, 1x) get no denser files (1.5x, 2x): dppx does not upscale; --upscale writes them")
        #expect(report.summary(manifestPath: "m").notUpscaled == ["small@1x.png", "tiny@1x.png"])
        #expect(try fixture.manifestOnDisk().images[0].skippedDensities == [Density(1.5), Density(2)])
        try fixture.build(PlanSettings(sourceDensityGiven: true, allowUpscale: true))
        #expect(try fixture.decoded("small@2x.png").width == 240)
    }

    @Test("an extra-format file not smaller than the master-format one of its density is not written; the report says which, and OUT's size against the masters'")
    func notSmaller() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo@2x.jpg"), width: 400, height: 300)
        try TestImages.write(fixture.source("other@2x.jpg"), width: 400, height: 300)
        // A JPEG at quality 5 against a WebP at 100: every WebP is larger.
        let rule = ImageRule(match: [PathGlob("photo@2x.jpg")], jpegQuality: 5, webpQuality: 100)
        let plan = PlanSettings(extraFormats: [.webp], rules: [rule])
        let report = try fixture.build(plan)
        #expect(!fixture.output.files().contains { $0.hasPrefix("photo") && $0.hasSuffix(".webp") }, "\(fixture.output.files())")
        #expect(fixture.output.files().contains("other@2x.webp"))
        let manifest = try fixture.manifestOnDisk()
        #expect(manifest.images.first { $0.source == "photo@2x.jpg" }?.formats == [.jpeg])
        #expect(report.notSmaller.map(\.path).sorted() == ["photo.webp", "photo@1.5x.webp", "photo@2x.webp"])
        #expect(report.notSmaller.allSatisfy { $0.bytes >= $0.replacedBytes && $0.replaces == $0.path.replacingOccurrences(of: ".webp", with: ".jpg") })
        func size(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? -1 }
        let onDisk = fixture.output.files().filter { $0 != Manifest.fileName }.reduce(0) { $0 + size(fixture.output($1)) }
        let masters = ["photo@2x.jpg", "other@2x.jpg"].reduce(0) { $0 + size(fixture.source($1)) }
        #expect(report.outputBytes == onDisk && report.masterBytes == masters)
        #expect(report.summary(manifestPath: "m").outputBytes == onDisk)
        #expect(report.diskLine(out: "public").hasPrefix("public holds ") && report.diskLine(out: "public").contains("3 extra-format files left out"),
                "\(report.diskLine(out: "public"))")
        let again = try fixture.build(plan)
        #expect(again.unchanged.count == 2 && again.filesWritten == 0, "nothing is redone for the files left out")
    }

    @Test("a 3x master named @3x gives a third-size CSS box and variants up to 3x")
    func threeX() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("icons/logo@3x.png"), width: 360, height: 180, bands: 4)
        try fixture.build(PlanSettings(densities: [Density(1), Density(2), Density(3)], sourceDensityGiven: true))
        #expect(fixture.output.files() == ["dppx-manifest.json", "icons/logo.png", "icons/logo@2x.png", "icons/logo@3x.png"])
        #expect(try fixture.decoded("icons/logo.png").width == 120)
        #expect(try fixture.manifestOnDisk().images[0].path == "icons/logo.png")
    }

    @Test("nested folders, spaces and non-ASCII names are mirrored")
    func names() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a/b c/Ünïcødé phöto.jpg"), width: 100, height: 60)
        try TestImages.write(fixture.source("a/plain.webp"), width: 100, height: 60)
        let report = try fixture.build()
        #expect(report.succeeded)
        #expect(fixture.output.files().contains("a/b c/Ünïcødé phöto@1.5x.jpg"))
        #expect(try fixture.decoded("a/plain@2x.webp").loader.hasPrefix("webpload"))
    }

    @Test("an SVG is copied once, unchanged, and marked density-independent")
    func svg() throws {
        let fixture = BuildFixture()
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="48" height="32"><rect width="48" height="32" fill="red"/></svg>"#
        try TestImages.writeBytes(Array(svg.utf8), to: fixture.source("icons/box.svg"))
        try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        #expect(fixture.output.files() == ["dppx-manifest.json", "icons/box.svg"])
        #expect(try AtomicFile.read(fixture.output("icons/box.svg")) == Array(svg.utf8))
        let image = try fixture.manifestOnDisk().images[0]
        #expect(image.densityIndependent)
        #expect(image.cssSize == PixelSize(width: 48, height: 32))
    }

    @Test("an animated GIF keeps its animation in every variant; AVIF is skipped with a reason")
    func animated() throws {
        let fixture = BuildFixture()
        try TestImages.writeAnimation(fixture.source("spin.gif"), width: 80, height: 60, frames: 4)
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp, .avif]))
        #expect(report.succeeded, "\(report.failures)")
        for (path, width) in [("spin.gif", 40), ("spin@1.5x.gif", 60), ("spin@2x.webp", 80)] {
            let file = try fixture.decoded(path)
            #expect(file.pages == 4, "\(path)")
            #expect(file.width == width)
            #expect(file.height == width * 3 / 4)
        }
        #expect(!fixture.output.files().contains { $0.hasSuffix(".avif") })
        #expect(report.warnings.contains { $0.reason.contains("avif") })
    }

    @Test("a master's EXIF reaches no variant in any format (libvips's WebP saver writes it even when stripping)",
          arguments: ["grey.jpg", "colour.jpg", "spin.webp"])
    func noMetadataInVariants(master: String) throws {
        let fixture = BuildFixture()
        let secret = "dppx-test-secret-artist"
        if master == "spin.webp" {
            try TestImages.writeAnimation(fixture.source(master), width: 80, height: 60, frames: 3, artist: secret)
        } else {
            try TestImages.write(fixture.source(master), width: 120, height: 80, bands: master == "grey.jpg" ? 1 : 3, artist: secret)
        }
        let marker = Array(secret.utf8)
        let sourceBytes = try AtomicFile.read(fixture.source(master))
        #expect(sourceBytes.firstRange(of: marker) != nil, "the master carries the tag")
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp, .avif]))
        #expect(report.succeeded, "\(report.failures)")
        let variants = fixture.output.files().filter { $0 != Manifest.fileName }
        #expect(variants.count == (master == "spin.webp" ? 3 : 9), "\(variants)")
        for path in variants {
            let bytes = try AtomicFile.read(fixture.output(path))
            #expect(bytes.firstRange(of: marker) == nil, "\(path) carries the master's EXIF")
            if path.hasSuffix(".webp") {
                let chunks = try #require(WebPChunks.names(bytes), "\(path) is a well-formed WebP")
                #expect(!chunks.contains("EXIF") && !chunks.contains("XMP "), "\(path): \(chunks)")
            }
        }
    }

    @Test("identical inputs give byte-identical manifests")
    func deterministicManifest() throws {
        let one = BuildFixture()
        try TestImages.write(one.source("z.jpg"), width: 200, height: 100)
        try TestImages.write(one.source("a/y.png"), width: 100, height: 100, bands: 4)
        try one.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        let other = BuildFixture()
        for file in one.source.files() {
            try TestImages.writeBytes(AtomicFile.read(one.source(file)), to: other.source(file))
        }
        try other.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        #expect(try AtomicFile.read(one.output("dppx-manifest.json")) == AtomicFile.read(other.output("dppx-manifest.json")))
    }
}

@Suite("Own-size outputs and the WebP encoder")
struct PassThroughTests {
    @Test("a PNG master's own-size PNG is its pixel data as it is, metadata dropped; smaller ones are re-encoded")
    func pngPassThrough() throws {
        let fixture = BuildFixture()
        let master = fixture.source("logo.png")
        try TestImages.write(master, width: 320, height: 200, bands: 4)
        // Metadata after the header: a text chunk (placeholder CRC; no reader checks it here).
        var bytes = try AtomicFile.read(master)
        let text = Array("Comment\0made by a test".utf8)
        let chunk = [0, 0, 0, UInt8(text.count)] + Array("tEXt".utf8) + text + [0, 0, 0, 0]
        bytes.insert(contentsOf: chunk, at: 8 + 25)
        try TestImages.writeBytes(bytes, to: master)

        let report = try fixture.build()
        #expect(report.succeeded)
        let own = try AtomicFile.read(fixture.output("logo@2x.png"))
        let stripped = try #require(PNGChunks.strippingMetadata(bytes))
        let variant = try #require(try fixture.manifestOnDisk().images.first?.variants.first { $0.path == "logo@2x.png" })
        #expect(variant.masterBytes == true && own == stripped)
        #expect(!String(decoding: own, as: UTF8.self).contains("tEXt"))
        #expect(try fixture.decoded("logo@2x.png").pixels == DecodedFile(master).pixels)
        let small = try fixture.decoded("logo.png")
        #expect((small.width, small.height, small.bands) == (160, 100, 4))
    }

    @Test("a PNG master that needs converting (16-bit) is re-encoded at its own size too")
    func noPassThroughWhenConverted() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("deep.png"), width: 200, height: 100, depth: .sixteen)
        #expect(try fixture.build().succeeded)
        #expect(try fixture.decoded("deep@2x.png").bitsPerSample == 8)
    }

    @Test("WebP variants: libvips's bitstream, pixel for pixel, and no metadata chunk at all", arguments: [3, 4])
    func webp(bands: Int) throws {
        let fixture = BuildFixture()
        // A lossless master: its decoded pixels are exactly the generated ones.
        try TestImages.write(fixture.source("photo.webp") + "[lossless]", width: 300, height: 200, bands: bands)
        #expect(try fixture.build().succeeded)
        // The same pixels through libvips's own saver at the same settings, outside SRC.
        let settings = EncodeSettings()
        let elsewhere = ScratchFolder("dppx-reference")
        let reference = elsewhere("reference.webp")
        try TestImages.write(reference + "[Q=\(settings.webpQuality),effort=\(settings.webpEffort),strip]", width: 300, height: 200, bands: bands)
        let ours = try AtomicFile.read(fixture.output("photo@2x.webp"))
        #expect(!String(decoding: ours, as: UTF8.self).contains("EXIF"))
        #expect(!String(decoding: ours, as: UTF8.self).contains("XMP "))
        let theirs = try DecodedFile(reference)
        let mine = try fixture.decoded("photo@2x.webp")
        #expect(mine.bands == bands)
        #expect(mine.pixels == theirs.pixels)
    }
}
