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

    @Test("with [rewrite] pages in dppx.toml, every rebuild brings the pages' srcset up to date")
    func rewritesPages() async throws {
        let scratch = ScratchFolder("dppx-watch-pages")
        try TestImages.write(scratch("src/hero@2x.jpg"), width: 400, height: 200)
        try "[build]\nsource = \"src\"\nout = \"site/img\"\n[rewrite]\npages = [\"site/*.html\"]\nroot = \"site\"\nmeasure = false\n"
            .write(toFile: scratch("dppx.toml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: scratch("site"), withIntermediateDirectories: true)
        try "<!doctype html><p><img src=\"img/hero.jpg\" alt=\"\"> <img src=\"img/late.jpg\" alt=\"\"></p>\n"
            .write(toFile: scratch("site/index.html"), atomically: true, encoding: .utf8)
        let page: @Sendable () -> String = { (try? String(contentsOfFile: scratch("site/index.html"), encoding: .utf8)) ?? "" }
        let watching = try LoggedProcess(["build", "--watch"], in: scratch.path)

        try await watching.waitFor("the page rewritten after the first build") { page().contains("img/hero@2x.jpg 2x") }
        #expect(!page().contains("late@2x"))
        try TestImages.write(scratch("src/late@2x.jpg"), width: 200, height: 100)
        try await watching.waitFor("the page rewritten after the rebuild") { page().contains("img/late@2x.jpg 2x") }
        #expect(watching.log().contains("rewrote 1 page"), "\(watching.log())")
        let status = try await watching.interrupt()
        #expect(status == 0, "\(watching.log())")
    }

    @Test("a second Ctrl-C while a build runs stops at once with 130, saying the next build removes the temporary files")
    func secondInterrupt() async throws {
        let scratch = ScratchFolder("dppx-watch-twice")
        // Enough masters that, one at a time, the build runs for seconds after the first is built.
        // The signals are sent from a thread of their own: a loaded test process can leave its
        // tasks unscheduled for longer than the whole build takes.
        for index in 0..<24 { try TestImages.write(scratch("src/big\(index)@2x.jpg"), width: 2400, height: 1600, seed: UInt64(index)) }
        let watching = try LoggedProcess(["build", "src", "--out", "public", "--jobs", "1", "--watch"], in: scratch.path)
        let process = watching.process
        let termination = try await offPool {
            let deadline = Date().addingTimeInterval(60)
            while !watching.log().contains("built big") && process.isRunning && Date() < deadline { usleep(10_000) }
            process.signal(SIGINT)
            usleep(300_000)
            return process.stop(SIGINT, grace: 30)
        }
        // dppx's own exit(130), not death by SIGINT, which a shell would also report as 130.
        #expect(termination == .exited(130), "\(termination): \(watching.log())")
        #expect(watching.log().contains("interrupted during a build; the next build removes its temporary files"))
        #expect(!watching.log().contains("watching src"), "it stopped before the first build ended: \(watching.log())")
    }

    private func manifestSize(_ scratch: ScratchFolder, _ source: String) -> PixelSize? {
        guard let bytes = FileManager.default.contents(atPath: scratch("public/dppx-manifest.json")),
              let manifest = try? Manifest.decode(Array(bytes)) else { return nil }
        return manifest.images.first { $0.source == source }.map { PixelSize(width: $0.width, height: $0.height) }
    }
}

extension LoggedProcess {
    /// Polls `condition` for up to a minute; fails naming `what`, with the log. Polls on a thread
    /// of its own: synchronous tests can hold Swift's cooperative pool for longer than a minute,
    /// and a poll that resumes only after its deadline would fail though the condition held.
    func waitFor(_ what: String, _ condition: @escaping @Sendable () -> Bool) async throws {
        let process = self.process
        let met = try await offPool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if condition() { return true }
                guard process.isRunning else { break }
                usleep(100_000)
            }
            return condition()
        }
        guard met else { throw WaitFailure(description: "waited in vain for \(what); dppx printed:\n\(log())") }
    }

    struct WaitFailure: Error, CustomStringConvertible {
        let description: String
    }
}
