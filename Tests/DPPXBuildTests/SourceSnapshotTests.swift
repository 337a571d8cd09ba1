import DPPXBuild
import DPPXTestSupport
import Foundation
import Testing

/// The watcher's view of SRC is the build's: one walk, one set of rules.
@Suite("Source snapshots for --watch")
struct SourceSnapshotTests {
    @Test("the watcher sees exactly the masters a build takes: symlinked folders skipped, odd names as the build reports them")
    func sameWalkAsTheBuild() throws {
        let source = ScratchFolder("dppx-snapshot")
        try TestImages.write(source("a.jpg"), width: 20, height: 10)
        try TestImages.write(source("sub/b.png"), width: 20, height: 10)
        try TestImages.write(source(".hidden/c.jpg"), width: 20, height: 10)
        try FileManager.default.createSymbolicLink(atPath: source("linked"), withDestinationPath: source("sub"))
        try FileManager.default.createSymbolicLink(atPath: source("sub/loop"), withDestinationPath: source.path)
        // A name that is not UTF-8 (Latin-1 "é").
        let raw: [UInt8] = Array((source.path + "/caf").utf8) + [0xE9] + Array(".jpg".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_CREAT | O_WRONLY, 0o644) }
        #expect(fd >= 0)
        close(fd)

        let (sources, rejected) = try SourceScanner(root: source.path).scan()
        let snapshot = SourceSnapshot(root: source.path)
        #expect(Set(snapshot.files.keys) == Set(sources.map(\.relativePath) + rejected.map(\.file)))
        #expect(sources.map(\.relativePath) == ["a.jpg", "sub/b.png"])
        #expect(rejected.count == 1)
    }

    @Test("a change, an addition and a removal are each reported by path")
    func changes() throws {
        let source = ScratchFolder("dppx-snapshot")
        try TestImages.write(source("a.jpg"), width: 20, height: 10)
        try TestImages.write(source("b.jpg"), width: 20, height: 10)
        let before = SourceSnapshot(root: source.path)
        try TestImages.write(source("a.jpg"), width: 30, height: 10)
        try FileManager.default.removeItem(atPath: source("b.jpg"))
        try TestImages.write(source("c.jpg"), width: 20, height: 10)
        #expect(before.changes(to: SourceSnapshot(root: source.path)) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(SourceSnapshot(root: source("missing")).files.isEmpty)
    }
}
