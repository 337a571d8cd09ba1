import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("Folder walks: hidden names skipped, links never entered, depth bounded")
struct FolderWalkTests {
    private func entries(under root: String, maxDepth: Int = .max) -> [String: FileStatus.Kind] {
        var found: [String: FileStatus.Kind] = [:]
        FolderWalk.visit(under: root, maxDepth: maxDepth) { entry in
            #expect(entry.path == root + "/" + entry.relative)
            #expect(entry.relative.split(separator: "/").last.map(String.init) == entry.name)
            found[entry.relative] = entry.status.kind
        }
        return found
    }

    @Test("every entry once, relative to the root; a linked folder is reported as a link and not entered")
    func entries() throws {
        let tree = ScratchFolder("walk")
        let elsewhere = ScratchFolder("walk-elsewhere")
        try AtomicFile.write([1], to: tree("a/b/c.txt"))
        try AtomicFile.write([1], to: tree("top.txt"))
        try AtomicFile.write([1], to: tree(".hidden/x.txt"))
        try AtomicFile.write([1], to: tree("a/.dot.txt"))
        try AtomicFile.write([1], to: elsewhere("outside.txt"))
        try FileManager.default.createSymbolicLink(atPath: tree("linked"), withDestinationPath: elsewhere.path)
        try FileManager.default.createSymbolicLink(atPath: tree("loop"), withDestinationPath: tree.path)
        #expect(entries(under: tree.path) == ["a": .folder, "a/b": .folder, "a/b/c.txt": .regularFile, "top.txt": .regularFile,
                                              "linked": .symbolicLink, "loop": .symbolicLink])
    }

    @Test("maxDepth: the root's entries are at depth 0, and folders deeper than maxDepth are not entered")
    func depth() throws {
        let tree = ScratchFolder("walk-depth")
        try AtomicFile.write([1], to: tree("1/2/3/file"))
        #expect(entries(under: tree.path, maxDepth: 0) == ["1": .folder])
        #expect(entries(under: tree.path, maxDepth: 1) == ["1": .folder, "1/2": .folder])
        #expect(entries(under: tree.path, maxDepth: 2).count == 3)
        #expect(entries(under: tree.path).count == 4)
    }

    @Test("a missing root, or a file given as the root, gives nothing")
    func missingRoot() throws {
        let tree = ScratchFolder("walk-missing")
        try AtomicFile.write([1], to: tree("file"))
        #expect(entries(under: tree("nowhere")).isEmpty)
        #expect(entries(under: tree("file")).isEmpty)
    }
}
