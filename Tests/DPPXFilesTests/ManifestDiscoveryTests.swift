import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("Manifest discovery: the one walk serve, rewrite, css and html share")
struct ManifestDiscoveryTests {
    private func manifest(_ folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try AtomicFile.write(Array("{}".utf8), to: folder + "/" + Manifest.fileName)
    }

    @Test("the root's own manifest first, then the others by path; hidden folders skipped")
    func order() throws {
        let site = ScratchFolder("discovery")
        try manifest(site("b/img"))
        try manifest(site("a-b"))
        try manifest(site("a/img"))
        try manifest(site.path)
        try manifest(site(".git/img"))
        try manifest(site("img/.cache"))
        let found = ManifestDiscovery.find(under: site.path + "/")
        #expect(found == [site(Manifest.fileName), site("a-b/" + Manifest.fileName), site("a/img/" + Manifest.fileName),
                          site("b/img/" + Manifest.fileName)])
    }

    @Test("at most searchDepth folders below the root")
    func depth() throws {
        let site = ScratchFolder("discovery-depth")
        let deepest = (1...ManifestDiscovery.searchDepth).map { "d\($0)" }.joined(separator: "/")
        try manifest(site(deepest))
        try manifest(site(deepest + "/too-deep"))
        #expect(ManifestDiscovery.find(under: site.path) == [site(deepest + "/" + Manifest.fileName)])
    }

    @Test("no link is followed: a linked folder is not entered, a linked manifest is not used")
    func links() throws {
        let site = ScratchFolder("discovery-links")
        let elsewhere = ScratchFolder("discovery-elsewhere")
        try manifest(elsewhere("img"))
        try manifest(site("img"))
        try FileManager.default.createSymbolicLink(atPath: site("linked"), withDestinationPath: elsewhere("img"))
        try FileManager.default.createSymbolicLink(atPath: site("loop"), withDestinationPath: site.path)
        try FileManager.default.createDirectory(atPath: site("alias"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site("alias/" + Manifest.fileName),
                                                   withDestinationPath: elsewhere("img/" + Manifest.fileName))
        #expect(ManifestDiscovery.find(under: site.path) == [site("img/" + Manifest.fileName)])
    }
}
