import DPPXCore
import Testing

@Suite("Manifest")
struct ManifestTests {
    func plan(_ path: String, size: PixelSize, formats: [ImageFormat] = []) -> ImagePlan {
        ImagePlan(name: MasterName(relativePath: path)!, source: path, masterSize: size, hasAlpha: false, animated: false,
                  settings: PlanSettings(sourceDensityGiven: true, extraFormats: formats))
    }

    @Test("the same images in any order encode to the same bytes")
    func deterministic() {
        let a = plan("b/hero.jpg", size: PixelSize(width: 800, height: 500)).manifestImage(sourceHash: "aa", files: [:])
        let b = plan("a/logo@3x.png", size: PixelSize(width: 300, height: 300)).manifestImage(sourceHash: "bb", files: [:])
        #expect(Manifest(images: [a, b]).encoded() == Manifest(images: [b, a]).encoded())
        #expect(Manifest(images: [a, b]).images.map(\.source) == ["a/logo@3x.png", "b/hero.jpg"])
    }

    @Test("round-trips through JSON")
    func roundTrip() throws {
        let image = plan("hero.jpg", size: PixelSize(width: 800, height: 500), formats: [.webp, .avif])
            .manifestImage(sourceHash: "ff", files: ["hero.jpg": (1234, "ab")])
        let manifest = Manifest(images: [image])
        let decoded = try Manifest.decode(manifest.encoded())
        #expect(decoded == manifest)
        #expect(decoded.images[0].formats == [.avif, .webp, .jpeg])
        #expect(decoded.images[0].variants(in: .webp).map(\.path) == ["hero.webp", "hero@1.5x.webp", "hero@2x.webp"])
        #expect(decoded.image(containing: "hero@2x.avif")?.source == "hero.jpg")
    }

    @Test("malformed and future manifests give errors that say what to do")
    func errors() {
        #expect(throws: ManifestError.self) { try Manifest.decode(Array("{".utf8)) }
        do {
            _ = try Manifest.decode(Array(#"{"version": 9, "images": []}"#.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error == .unsupportedVersion(9))
            #expect(error.description.contains("rebuild"))
        }
    }

    @Test("an SVG master is one density-independent file")
    func vector() {
        let svg = ImagePlan(name: MasterName(relativePath: "icons/arrow.svg")!, source: "icons/arrow.svg",
                            masterSize: PixelSize(width: 48, height: 48), hasAlpha: true, animated: false,
                            settings: PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        #expect(svg.densityIndependent)
        #expect(svg.outputs.map(\.path) == ["icons/arrow.svg"])
        #expect(svg.cssSize == PixelSize(width: 48, height: 48))
    }

    @Test("animations skip formats that cannot hold them")
    func animation() {
        let gif = ImagePlan(name: MasterName(relativePath: "spin.gif")!, source: "spin.gif", masterSize: PixelSize(width: 40, height: 40),
                            hasAlpha: false, animated: true, settings: PlanSettings(sourceDensityGiven: true, extraFormats: [.webp, .avif]))
        #expect(Set(gif.outputs.map(\.format)) == [.gif, .webp])
        #expect(gif.skippedFormats.map(\.format) == [.avif])
    }

    @Test("TIFF and HEIC masters are written as JPEG, or PNG when they have alpha")
    func nonWebMasters() {
        #expect(ImageFormat.primaryOutput(forMaster: .tiff, hasAlpha: false) == .jpeg)
        #expect(ImageFormat.primaryOutput(forMaster: .heic, hasAlpha: true) == .png)
        #expect(ImageFormat.primaryOutput(forMaster: .webp, hasAlpha: true) == .webp)
    }

    @Test("--formats lists are parsed and checked")
    func formatLists() throws {
        #expect(try ImageFormat.parseList("webp, avif,webp") == [.webp, .avif])
        #expect(throws: FormatListError(entry: "bmp")) { try ImageFormat.parseList("webp,bmp") }
        #expect(throws: FormatListError.self) { try ImageFormat.parseList("svg") }
    }
}
