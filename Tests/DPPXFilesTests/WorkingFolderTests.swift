import DPPXFiles
import Foundation
import Testing

@Suite("The working folder")
struct WorkingFolderTests {
    @Test("the working folder is the one relative paths are read from")
    func workingFolder() throws {
        #expect(WorkingFolder.path == FileManager.default.currentDirectoryPath)
    }
}
