import DPPXFiles
import DPPXTestSupport
import Foundation
import SystemPackage
import Testing

@Suite("File status: one stat, one modification time")
struct FileStatusTests {
    @Test("kind, size, identity and modification time to the nanosecond, from a path, a link or an open file")
    func status() throws {
        let scratch = ScratchFolder("status")
        try AtomicFile.write(Array("hello".utf8), to: scratch("a.txt"))
        let when = Date(timeIntervalSince1970: 1_700_000_000.25)
        try FileManager.default.setAttributes([.modificationDate: when], ofItemAtPath: scratch("a.txt"))
        try FileManager.default.createSymbolicLink(atPath: scratch("link"), withDestinationPath: scratch("a.txt"))

        let file = try FileStatus(path: scratch("a.txt"))
        #expect(file.kind == .regularFile && file.size == 5)
        #expect(file.modifiedSeconds == 1_700_000_000)
        #expect(abs(file.modifiedNanoseconds - 250_000_000) < 1_000)
        #expect(file.modified == Int64(file.modifiedSeconds) * 1_000_000_000 + Int64(file.modifiedNanoseconds))
        #expect(try FileStatus(path: scratch("link")) == file, "a link followed is its target")
        #expect(try FileStatus(path: scratch("link"), followingLinks: false).kind == .symbolicLink)
        #expect(try FileStatus(path: scratch.path).isFolder)
        let descriptor = try FileDescriptor.open(FilePath(scratch("a.txt")), .readOnly)
        defer { try? descriptor.close() }
        #expect(try FileStatus(descriptor: descriptor) == file)
        #expect(try descriptor.read(upTo: 3, at: 1) == Array("ell".utf8))
        #expect(try descriptor.read(upTo: 10, at: 3) == Array("lo".utf8))
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileStatus(path: scratch("missing")) }
    }

    @Test("an executable file is a regular file this process may run; a folder or a plain file is not")
    func executable() throws {
        let scratch = ScratchFolder("executable")
        try AtomicFile.write([1], to: scratch("plain"))
        try AtomicFile.write([1], to: scratch("tool"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: scratch("tool"))
        try FileManager.default.createSymbolicLink(atPath: scratch("linked-tool"), withDestinationPath: scratch("tool"))
        #expect(FileStatus.isExecutableFile(scratch("tool")))
        #expect(FileStatus.isExecutableFile(scratch("linked-tool")))
        #expect(!FileStatus.isExecutableFile(scratch("plain")))
        #expect(!FileStatus.isExecutableFile(scratch.path))
        #expect(!FileStatus.isExecutableFile(scratch("missing")))
    }
}
