import DPPXBuild
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("The pages a rewrite reads: paths as given, patterns matched under their leading folder")
struct PageFilesTests {
    private func write(_ path: String) throws {
        try AtomicFile.write(Array("<p>".utf8), to: path)
    }

    @Test("a pattern lists the files it matches, sorted; hidden names and linked folders left out, links to files kept")
    func pattern() throws {
        let site = ScratchFolder("page-files")
        let elsewhere = ScratchFolder("page-files-elsewhere")
        for page in ["index.html", "blog/post.html", "blog/deep/er.html", "blog/notes.txt", ".git/x.html", "blog/.draft.html"] {
            try write(site(page))
        }
        try write(elsewhere("outside.html"))
        try FileManager.default.createDirectory(atPath: site("folder.html"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site("linked.html"), withDestinationPath: elsewhere("outside.html"))
        try FileManager.default.createSymbolicLink(atPath: site("broken.html"), withDestinationPath: elsewhere("gone.html"))
        try FileManager.default.createSymbolicLink(atPath: site("linked-folder"), withDestinationPath: elsewhere.path)
        try FileManager.default.createSymbolicLink(atPath: site("loop"), withDestinationPath: site.path)

        #expect(SiteRewrite.files(matching: [site("**/*.html")])
            == [site("blog/deep/er.html"), site("blog/post.html"), site("index.html"), site("linked.html")])
        #expect(SiteRewrite.files(matching: [site("blog/*.html")]) == [site("blog/post.html")])
    }

    @Test("a path without a wildcard is kept as given, existing or not; each file once, in the order first named")
    func paths() throws {
        let site = ScratchFolder("page-files-paths")
        try write(site("b.html"))
        try write(site("a.html"))
        #expect(SiteRewrite.files(matching: [site("missing.html"), site("*.html"), site("b.html"), site("nowhere/**/*.html")])
            == [site("missing.html"), site("a.html"), site("b.html")])
    }
}
