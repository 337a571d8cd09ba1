import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// A journal's file: lines appended one call at a time, read back whole; a line a crash cut
/// short is not read.
@Suite("Synced lines")
struct SyncedLinesTests {
    @Test("appended lines are read back in order; a missing file has none; a torn last line is dropped")
    func appendAndRead() throws {
        let scratch = ScratchFolder("synced")
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let path = scratch("journal")
        #expect(SyncedLines.read(path).isEmpty)
        try SyncedLines.append(["a@1x.jpg"], to: path)
        try SyncedLines.append(["b@1x.jpg", "b@2x.webp"], to: path)
        #expect(SyncedLines.read(path) == ["a@1x.jpg", "b@1x.jpg", "b@2x.webp"])
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("c@1".utf8))
        try handle.close()
        #expect(SyncedLines.read(path) == ["a@1x.jpg", "b@1x.jpg", "b@2x.webp"], "a line without its line break was cut short")
        #expect(throws: FileError.self) { try SyncedLines.append(["x"], to: scratch("missing/journal")) }
    }
}
