import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

/// `dppx build SRC --out OUT --watch`, run as users run it: a child process, masters changed
/// on disk, Ctrl-C at the end.
@Suite("dppx build --watch")
struct BuildWatchTests {
    @Test("a change, an addition and a removal each produce the right outputs; a broken master is reported and watching goes on; Ctrl-C stops cleanly")
    func watches() async throws {
        let scratch = ScratchFolder("dppx-watch")
        try TestImages.write(scratch("src/hero@2x.jpg"), width: 800, height: 500)
        let watching = try LoggedProcess(["build", "src", "--out", "public", "--css", "public/site.css", "--watch"], in: scratch.path)

        try await watching.waitFor("initial build") { manifestSize(scratch, "hero@2x.jpg") == PixelSize(width: 400, height: 250) }
        try await watching.waitFor("the stylesheet written") { FileManager.default.fileExists(atPath: scratch("public/site.css")) }

        try TestImages.write(scratch("src/hero@2x.jpg"), width: 600, height: 300)
        try await watching.waitFor("the changed master rebuilt") { manifestSize(scratch, "hero@2x.jpg") == PixelSize(width: 300, height: 150) }
        let rebuilt = try DecodedFile(scratch("public/hero@2x.jpg"))
        #expect(rebuilt.width == 600 && rebuilt.height == 300)

        try TestImages.write(scratch("src/icons/logo@3x.png"), width: 96, height: 96, bands: 4)
        try await watching.waitFor("the added master built") { FileManager.default.fileExists(atPath: scratch("public/icons/logo@2x.png")) }
        try await watching.waitFor("the stylesheet rewritten") { (try? String(contentsOfFile: scratch("public/site.css"), encoding: .utf8))?.contains(".img-icons-logo") == true }

        try FileManager.default.removeItem(atPath: scratch("src/hero@2x.jpg"))
        try await watching.waitFor("the removed master's outputs deleted") { !FileManager.default.fileExists(atPath: scratch("public/hero@2x.jpg")) }
        #expect(!FileManager.default.fileExists(atPath: scratch("public/hero.jpg")))

        try TestImages.writeBytes(Array("not a picture".utf8), to: scratch("src/broken.jpg"))
        try await watching.waitFor("the broken master reported") { watching.log().contains("broken.jpg") }
        try TestImages.write(scratch("src/late@2x.jpg"), width: 200, height: 100)
        try await watching.waitFor("watching goes on after a failed build") { FileManager.default.fileExists(atPath: scratch("public/late@2x.jpg")) }

        // Ctrl-C while a build runs: the build finishes, nothing temporary stays.
        for index in 0..<6 { try TestImages.write(scratch("src/big\(index).jpg"), width: 2400, height: 1600, seed: UInt64(index)) }
        let buildsBefore = watching.log().components(separatedBy: "rebuilding").count
        try await watching.waitFor("the next build started") { watching.log().components(separatedBy: "rebuilding").count > buildsBefore }
        let status = try await watching.interrupt()
        #expect(status == 0, "\(watching.log())")
        let leftovers = scratch.files(includingHidden: true).filter { $0.contains(".dppx-tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    private func manifestSize(_ scratch: ScratchFolder, _ source: String) -> PixelSize? {
        guard let bytes = FileManager.default.contents(atPath: scratch("public/dppx-manifest.json")),
              let manifest = try? Manifest.decode(Array(bytes)) else { return nil }
        return manifest.images.first { $0.source == source }.map { PixelSize(width: $0.width, height: $0.height) }
    }
}

extension LoggedProcess {
    /// Polls `condition` for up to a minute; fails naming `what`, with the log.
    func waitFor(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if condition() { return }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw WaitFailure(description: "waited in vain for \(what); dppx printed:\n\(log())")
    }

    struct WaitFailure: Error, CustomStringConvertible {
        let description: String
    }
}
