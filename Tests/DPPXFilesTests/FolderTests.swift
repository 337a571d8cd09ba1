import DPPXFiles
import DPPXTestSupport
import Foundation
import SystemPackage
import Testing

@Suite("Writes: atomic, and only when the content changes")
struct FolderTests {
    @Test("writeIfChanged leaves a file that holds the bytes alone (same inode, same time) and replaces one that does not")
    func writeIfChanged() throws {
        let scratch = ScratchFolder("write-if-changed")
        let path = scratch("css/site.css")
        #expect(try AtomicFile.writeIfChanged(Array("a {}\n".utf8), to: path), "a missing file is written, its folder made")
        let first = try FileStatus(path: path)
        #expect(try !AtomicFile.writeIfChanged(Array("a {}\n".utf8), to: path))
        #expect(try FileStatus(path: path) == first)
        #expect(AtomicFile.holds(Array("a {}\n".utf8), at: path))
        #expect(!AtomicFile.holds(Array("b {}\n".utf8), at: path), "same size, other bytes")
        #expect(!AtomicFile.holds(Array("a {}".utf8), at: path))
        #expect(!AtomicFile.holds(Array("a {}\n".utf8), at: scratch("css/missing.css")))
        #expect(try AtomicFile.writeIfChanged(Array("b {}\n".utf8), to: path))
        #expect(try AtomicFile.read(path) == Array("b {}\n".utf8))
        #expect(try FileStatus(path: path).inode != first.inode, "replaced by a rename, never rewritten in place")
        #expect(scratch.files(includingHidden: true) == ["css/site.css"], "no temporary file is left")
    }

    @Test("a link at the target is replaced by the file, never written through, even when it shows the same bytes")
    func linkAtTarget() throws {
        let scratch = ScratchFolder("write-link")
        try AtomicFile.write(Array("kept".utf8), to: scratch("elsewhere.txt"))
        try FileManager.default.createSymbolicLink(atPath: scratch("out.txt"), withDestinationPath: scratch("elsewhere.txt"))
        #expect(!AtomicFile.holds(Array("kept".utf8), at: scratch("out.txt")))
        #expect(try AtomicFile.writeIfChanged(Array("kept".utf8), to: scratch("out.txt")))
        #expect(try FileStatus(path: scratch("out.txt"), followingLinks: false).kind == .regularFile)
        try AtomicFile.write(Array("new".utf8), to: scratch("out.txt"))
        #expect(try AtomicFile.read(scratch("elsewhere.txt")) == Array("kept".utf8))
    }

    @Test("a folder's entries are read and looked at without following a link")
    func folderEntries() throws {
        let scratch = ScratchFolder("folder")
        try AtomicFile.write(Array("12345".utf8), to: scratch("real.txt"))
        try FileManager.default.createSymbolicLink(atPath: scratch("link.txt"), withDestinationPath: scratch("real.txt"))
        let folder = try Folder(path: scratch.path, for: .read)
        #expect(folder.read("real.txt") == Array("12345".utf8))
        #expect(folder.read("link.txt") == nil)
        #expect(folder.status(of: "link.txt")?.kind == .symbolicLink)
        #expect(folder.status(of: "real.txt")?.size == 5)
        #expect(Set(try Folder.names(at: scratch.path).map { String(decoding: $0, as: UTF8.self) }) == ["real.txt", "link.txt"])
        #expect(throws: FileError.self) { try folder.subfolder("link.txt", creating: true, for: .write) }
        let made = try folder.subfolder("new", creating: true, for: .write)
        #expect(made.path == scratch("new"))
        #expect(try FileStatus(path: scratch("new")).isFolder)
    }

    @Test("read errors name the file and the reason")
    func readErrors() throws {
        let scratch = ScratchFolder("read-errors")
        #expect(throws: FileError(path: scratch("missing"), operation: .read, .noSuchFileOrDirectory)) {
            try AtomicFile.read(scratch("missing"))
        }
        #expect(throws: FileError(path: scratch.path, operation: .read, .isDirectory)) { try AtomicFile.read(scratch.path) }
        #expect(FileError(path: "x", operation: .read, .noSuchFileOrDirectory).description == "x: cannot read: No such file or directory; check the path")
        var chunks: [[UInt8]] = []
        try AtomicFile.write(Array(0..<10 as Range<UInt8>), to: scratch("ten"))
        try AtomicFile.read(scratch("ten"), inChunksOf: 4) { chunks.append(Array($0)) }
        #expect(chunks == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
    }

    @Test("a lock taken on one descriptor is refused on another until released")
    func locks() throws {
        let scratch = ScratchFolder("lock")
        let first = try FileDescriptor.open(FilePath(scratch.path), .readOnly, options: [.directory, .closeOnExec])
        let second = try FileDescriptor.open(FilePath(scratch.path), .readOnly, options: [.directory, .closeOnExec])
        defer { try? first.close(); try? second.close() }
        #expect(try first.tryLock(shared: false))
        #expect(try !second.tryLock(shared: true))
        first.unlock()
        #expect(try second.tryLock(shared: true))
        #expect(try first.tryLock(shared: true), "shared locks share")
    }
}
