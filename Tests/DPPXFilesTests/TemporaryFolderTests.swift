import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("Temporary folders: made private, removed whole, nothing outside touched")
struct TemporaryFolderTests {
    @Test("each is new, in TMPDIR, this user's only, and named with the prefix")
    func made() throws {
        let first = try TemporaryFolder(prefix: "dppx-test-")
        let second = try TemporaryFolder(prefix: "dppx-test-")
        defer { first.remove(); second.remove() }
        #expect(first.path != second.path)
        #expect((first.path as NSString).lastPathComponent.hasPrefix("dppx-test-"))
        #expect(FileStatus.at(first.path)?.isFolder == true)
        let permissions = try FileManager.default.attributesOfItem(atPath: first.path)[.posixPermissions] as? Int
        #expect(permissions == 0o700)
    }

    @Test("remove() takes everything in it, and a link inside is removed, never followed")
    func removed() throws {
        let folder = try TemporaryFolder(prefix: "dppx-test-")
        let elsewhere = ScratchFolder("temporary-elsewhere")
        try AtomicFile.write([1], to: elsewhere("kept/file"))
        try AtomicFile.write([1], to: folder.path + "/Default/Cache/data_0")
        try AtomicFile.write([1], to: folder.path + "/.hidden")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/Default/link", withDestinationPath: elsewhere("kept"))
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/file-link", withDestinationPath: elsewhere("kept/file"))
        folder.remove()
        #expect(FileStatus.at(folder.path) == nil)
        #expect(elsewhere.files() == ["kept/file"])
    }
}
