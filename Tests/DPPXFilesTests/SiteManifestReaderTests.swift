import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("Reading a site's manifests: the ones found or named, each at its folder, problems named")
struct SiteManifestReaderTests {
    private func manifest(_ path: String, to file: String) throws {
        let image = Manifest.Image(source: path, path: path, sourceHash: "h", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: 10, height: 10), densityIndependent: false, intent: .name,
                                   skippedDensities: [], variants: [
                                       Manifest.Variant(path: path, density: Density(1), format: .jpeg,
                                                        size: PixelSize(width: 10, height: 10), bytes: 1, hash: "a"),
                                   ])
        try AtomicFile.write(Manifest(images: [image]).encoded(), to: file)
    }

    @Test("under a root: the root's own first, then by path, each relative to the root; one that is not JSON is left out and named")
    func underRoot() throws {
        let site = ScratchFolder("site-manifests")
        try manifest("hero.jpg", to: site("img/\(Manifest.fileName)"))
        try manifest("logo.png", to: site(Manifest.fileName))
        try AtomicFile.write(Array("not json".utf8), to: site("broken/\(Manifest.fileName)"))
        let reading = SiteManifestReader.read(under: site.path)
        #expect(reading.site.paths == [site(Manifest.fileName), site("img/\(Manifest.fileName)")])
        #expect(reading.site.entries.map(\.folder) == ["", "img"])
        #expect(reading.site.images.map(\.path) == ["logo.png", "img/hero.jpg"])
        #expect(reading.problems.map(\.path) == [site("broken/\(Manifest.fileName)")])
        guard case .invalid? = reading.problems.first else { Issue.record("not JSON is invalid: \(reading.problems)"); return }
    }

    @Test("named manifests: a missing one is unreadable, one outside the root is refused, a root reached through a link still holds its own")
    func named() throws {
        let site = ScratchFolder("site-manifests-named")
        let elsewhere = ScratchFolder("site-manifests-elsewhere")
        try manifest("hero.jpg", to: site("img/\(Manifest.fileName)"))
        try manifest("other.jpg", to: elsewhere(Manifest.fileName))
        try FileManager.default.createSymbolicLink(atPath: elsewhere("link"), withDestinationPath: site.path)
        let reading = SiteManifestReader.read([elsewhere("link/img/\(Manifest.fileName)"), site("gone/\(Manifest.fileName)"),
                                               elsewhere(Manifest.fileName)], root: site.path)
        #expect(reading.site.entries.map(\.folder) == ["img"])
        #expect(reading.site.paths == [elsewhere("link/img/\(Manifest.fileName)")], "the path as named")
        #expect(reading.problems == [.unreadable(FileError(path: site("gone/\(Manifest.fileName)"), operation: .read, .noSuchFileOrDirectory)),
                                     .outsideRoot(path: elsewhere(Manifest.fileName), root: site.path)])
    }

    @Test("a held manifest (the one a build just wrote) is taken as given where its file is found, through a link too; the others are read")
    func held() throws {
        let site = ScratchFolder("site-manifests-held")
        try manifest("hero.jpg", to: site("img/\(Manifest.fileName)"))
        try manifest("logo.png", to: site(Manifest.fileName))
        try FileManager.default.createSymbolicLink(atPath: site("out"), withDestinationPath: site("img"))
        // What is on disk is not read: the file says hero.jpg, the held manifest new.jpg.
        let built = Manifest(images: [Manifest.Image(source: "new.jpg", path: "new.jpg", sourceHash: "n", sourceDensity: Density(1),
                                                     cssSize: PixelSize(width: 5, height: 5), densityIndependent: false, intent: .name,
                                                     skippedDensities: [], variants: [])])
        let reading = SiteManifestReader.read(under: site.path, held: .init(folder: site("out"), manifest: built))
        #expect(reading.site.images.map(\.path) == ["logo.png", "img/new.jpg"])
        #expect(reading.problems.isEmpty)

        // A held manifest whose folder has no manifest file under the root adds nothing.
        let elsewhere = SiteManifestReader.read(under: site.path, held: .init(folder: site("missing"), manifest: built))
        #expect(elsewhere.site.images.map(\.path) == ["logo.png", "img/hero.jpg"])
    }
}
