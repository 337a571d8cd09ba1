import DPPXCore
import Testing

@Suite("Master names and variant names")
struct MasterNameTests {
    @Test("an @Nx suffix declares the master's density")
    func declaredDensity() throws {
        let name = try #require(MasterName(relativePath: "icons/logo@3x.png"))
        #expect(name.directory == "icons")
        #expect(name.stem == "logo")
        #expect(name.declaredDensity == Density(3))
        #expect(name.format == .png)
        #expect(name.variantPath(density: Density(1), format: .png) == "icons/logo.png")
        #expect(name.variantPath(density: Density(1.5), format: .png) == "icons/logo@1.5x.png")
        #expect(name.variantPath(density: Density(2), format: .webp) == "icons/logo@2x.webp")
    }

    @Test("names without a suffix, odd @ signs and extensions", arguments: [
        ("hero.jpg", "hero", nil as Double?, ImageFormat.jpeg),
        ("a@b.jpg", "a@b", nil, .jpeg),
        ("photo@1.5x.JPEG", "photo", 1.5, .jpeg),
        ("@2x.png", "@2x", nil, .png),
        ("my photo é.webp", "my photo é", nil, .webp),
        ("scan.tiff", "scan", nil, .tiff),
        ("x@0x.png", "x@0x", nil, .png),
    ])
    func parses(path: String, stem: String, density: Double?, format: ImageFormat) throws {
        let name = try #require(MasterName(relativePath: path))
        #expect(name.stem == stem)
        #expect(name.declaredDensity == density.map(Density.init))
        #expect(name.format == format)
    }

    @Test("the master's own extension is kept for its own format")
    func keepsExtension() throws {
        let name = try #require(MasterName(relativePath: "Photo@2x.JPG"))
        #expect(name.variantPath(density: Density(1), format: .jpeg) == "Photo.JPG")
        #expect(name.variantPath(density: Density(2), format: .avif) == "Photo@2x.avif")
    }

    @Test("files that are not images are not masters", arguments: ["readme.txt", "noext", ".png", "a/b/.hidden", "x.pdf"])
    func notImages(path: String) {
        #expect(MasterName(relativePath: path) == nil)
    }
}
