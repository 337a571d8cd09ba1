import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

@Suite("Path containment: one answer to 'is this path inside that folder'")
struct PathContainmentTests {
    @Test("by name: relative, no '.' or '..' component, no NUL; empty components only when allowed")
    func byName() {
        #expect(PathContainment.escape(in: "a.jpg") == nil)
        #expect(PathContainment.escape(in: "img/hero@2x.jpg") == nil)
        #expect(PathContainment.escape(in: "img/..hidden/a..b.jpg") == nil, "dots inside a name are a name")
        #expect(PathContainment.escape(in: "/etc/passwd") == .absolute)
        #expect(PathContainment.escape(in: "../a.jpg") == .dotComponent)
        #expect(PathContainment.escape(in: "img/../../a.jpg") == .dotComponent)
        #expect(PathContainment.escape(in: "img/..") == .dotComponent)
        #expect(PathContainment.escape(in: "./a.jpg") == .dotComponent)
        #expect(PathContainment.escape(in: "a\u{0}.jpg") == .nul)
        #expect(PathContainment.escape(in: "") == .emptyComponent)
        #expect(PathContainment.escape(in: "img//a.jpg") == .emptyComponent)
        #expect(PathContainment.escape(in: "img/") == .emptyComponent)
        #expect(PathContainment.escape(in: "img//a.jpg", allowingEmptyComponents: true) == nil)
        #expect(PathContainment.escape(in: "img//../a.jpg", allowingEmptyComponents: true) == .dotComponent)
    }

    @Test("on disk: links resolved on both sides, '..' applied, trailing slashes ignored, a sibling with a longer name is outside")
    func onDisk() throws {
        let scratch = ScratchFolder("containment")
        let site = scratch("site")
        try FileManager.default.createDirectory(atPath: site + "/img", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch("site2"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: scratch("elsewhere"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site + "/out", withDestinationPath: scratch("elsewhere"))
        try FileManager.default.createSymbolicLink(atPath: site + "/inner", withDestinationPath: site + "/img")
        try FileManager.default.createSymbolicLink(atPath: scratch("link-to-site"), withDestinationPath: site)

        #expect(PathContainment.relativePath(of: site + "/img", inside: site) == "img")
        #expect(PathContainment.relativePath(of: site, inside: site + "/") == "")
        #expect(PathContainment.relativePath(of: site + "/img/", inside: scratch("link-to-site")) == "img")
        #expect(PathContainment.relativePath(of: site + "/inner", inside: site) == "img", "a link inside counts where it leads")
        #expect(PathContainment.relativePath(of: site + "/out", inside: site) == nil, "a link out of the folder is outside")
        #expect(PathContainment.relativePath(of: site + "/img/../../site2", inside: site) == nil)
        #expect(PathContainment.relativePath(of: scratch("site2"), inside: site) == nil, "site2 is not inside site")
        #expect(PathContainment.isInside(site + "/img/new/later.jpg", root: site), "a path not made yet is placed by its existing folders")
        #expect(!PathContainment.isInside(site + "/out/new/later.jpg", root: site), "...resolved, so a link on the way counts")
        #expect(!PathContainment.isInside(site + "/img/new/../../../site2/x", root: site))
    }

    @Test("canonical: absolute, no trailing slash, '.' and '..' applied beyond the existing folders")
    func canonical() throws {
        let scratch = ScratchFolder("canonical")
        let real = try #require(PathContainment.resolved(scratch.path))
        #expect(PathContainment.canonical(scratch.path + "/") == real)
        #expect(PathContainment.canonical(scratch.path + "/a/./b/../c") == real + "/a/c")
        #expect(PathContainment.canonical(scratch.path + "/missing/..") == real)
        #expect(PathContainment.canonical("relative/x").hasPrefix("/"))
    }
}
