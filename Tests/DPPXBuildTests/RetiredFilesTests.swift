@testable import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXRewrite
import DPPXTestSupport
import Foundation
import Testing

/// A build whose pages are rewritten after it never leaves a page naming a file it removed: the
/// files it drops are retired in its cache and removed after the rewrite, once no page names
/// them; and the predictor of a build in place reads the masters the build reads.
@Suite("Retired files: removed once no page names them")
struct RetiredFilesTests {
    /// `photo@2x.jpg` built at 1, 1.5 and 2x, then at 1 and 2x: `photo@1.5x.jpg` is dropped.
    static let all = PlanSettings(densities: [Density(1), Density(1.5), Density(2)])
    static let fewer = PlanSettings(densities: [Density(1), Density(2)])

    static func deferring(_ fixture: BuildFixture, _ plan: PlanSettings) -> BuildOptions {
        var options = fixture.options(plan)
        options.defersRemoval = true
        return options
    }

    /// The rewrite of `index.html` in OUT, which is the site's root here.
    static func pages(_ fixture: BuildFixture, naming html: String) throws -> SiteRewrite {
        try TestImages.writeBytes(Array(html.utf8), to: fixture.output("index.html"))
        return SiteRewrite(root: fixture.output.path, pages: [fixture.output("index.html")], options: RewriteOptions())
    }

    @Test("a deferring build keeps the files it drops and lists them in its cache; the sweep removes those no page names and keeps the named ones until then")
    func keptWhileNamed() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo@2x.jpg"), width: 800, height: 600)
        try Builder(options: Self.deferring(fixture, Self.all)).run()
        let report = try Builder(options: Self.deferring(fixture, Self.fewer)).run()
        #expect(report.removed.isEmpty, "nothing removed before the pages are rewritten")
        #expect(FileStatus.at(fixture.output("photo@1.5x.jpg")) != nil)
        let options = Self.deferring(fixture, Self.fewer)
        #expect(BuildCache.load(from: options.cachePath)?.retired.map(\.path) == ["photo@1.5x.jpg"])

        // A page (left as it was) still names it: kept, and still listed.
        let named = try Self.pages(fixture, naming: #"<img src="photo.jpg" srcset="photo.jpg 1x, photo@1.5x.jpg 1.5x">"#)
        let kept = RetiredFiles.sweep(options: options, manifest: report.manifest, rewrite: named)
        #expect(kept.removed.isEmpty && kept.named == ["photo@1.5x.jpg"])
        #expect(FileStatus.at(fixture.output("photo@1.5x.jpg")) != nil)
        #expect(BuildCache.load(from: options.cachePath)?.retired.map(\.path) == ["photo@1.5x.jpg"])

        // A later build carries it; once no page names it, the sweep removes it.
        let again = try Builder(options: options).run()
        #expect(again.unchanged == ["photo@2x.jpg"] && again.removed.isEmpty)
        let rewritten = try Self.pages(fixture, naming: #"<img src="photo.jpg" srcset="photo.jpg 1x, photo@2x.jpg 2x">"#)
        let swept = RetiredFiles.sweep(options: options, manifest: again.manifest, rewrite: rewritten)
        #expect(swept.removed == ["photo@1.5x.jpg"])
        #expect(FileStatus.at(fixture.output("photo@1.5x.jpg")) == nil)
        #expect(BuildCache.load(from: options.cachePath)?.retired.isEmpty == true)
    }

    @Test("a build without pages removes what it drops at its end, and what an earlier deferring build retired")
    func removedWithoutPages() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo@2x.jpg"), width: 800, height: 600)
        try Builder(options: Self.deferring(fixture, Self.all)).run()
        try Builder(options: Self.deferring(fixture, Self.fewer)).run()
        #expect(FileStatus.at(fixture.output("photo@1.5x.jpg")) != nil)
        let plain = try Builder(options: fixture.options(Self.fewer)).run()
        #expect(plain.removed == ["photo@1.5x.jpg"])
        #expect(FileStatus.at(fixture.output("photo@1.5x.jpg")) == nil)
    }

    @Test("a retired file built again is no longer retired; one changed since dppx wrote it is left in place and named")
    func builtAgainOrChanged() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo@2x.jpg"), width: 800, height: 600)
        try Builder(options: Self.deferring(fixture, Self.all)).run()
        try Builder(options: Self.deferring(fixture, Self.fewer)).run()
        let back = try Builder(options: Self.deferring(fixture, Self.all)).run()
        let options = Self.deferring(fixture, Self.all)
        #expect(BuildCache.load(from: options.cachePath)?.retired.isEmpty == true)
        #expect(back.manifest.images.first?.variants.contains { $0.path == "photo@1.5x.jpg" } == true)

        let dropped = try Builder(options: Self.deferring(fixture, Self.fewer)).run()
        try TestImages.writeBytes(Array("edited by hand".utf8), to: fixture.output("photo@1.5x.jpg"))
        let sweep = RetiredFiles.sweep(options: Self.deferring(fixture, Self.fewer), manifest: dropped.manifest,
                                       rewrite: try Self.pages(fixture, naming: "<p>no images</p>"))
        #expect(sweep.removed.isEmpty)
        #expect(sweep.kept.first?.reason.contains("its content changed since dppx wrote it") == true, "\(sweep.kept)")
        #expect(FileStatus.at(fixture.output("photo@1.5x.jpg")) != nil)
    }

    @Test("in place, a retired file beside its master stays dppx's: a later build may write it again, and the predictor reads the same masters as the build")
    func inPlace() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("photo.jpg"), width: 800, height: 600)
        var options = BuildOptions(sourceRoot: fixture.source.path, outputRoot: fixture.source.path,
                                   plan: PlanSettings(densities: [Density(1), Density(1.5), Density(2)], defaultSourceDensity: Density(2), sourceDensityGiven: true),
                                   cacheDirectory: fixture.cacheFolder)
        options.defersRemoval = true
        let first = try Builder(options: options).run()
        #expect(first.failures.isEmpty)
        #expect(try ManifestPredictor.predict(options: options).manifest.images.map(\.source) == ["photo.jpg"],
                "the variants beside the master are not masters")
        options.plan.densities = [Density(1), Density(2)]
        let second = try Builder(options: options).run()
        #expect(second.failures.isEmpty && FileStatus.at(fixture.source("photo@1.5x.jpg")) != nil)
        #expect(try ManifestPredictor.predict(options: options).manifest.images.map(\.source) == ["photo.jpg"],
                "nor is the retired one")
        options.plan.densities = [Density(1), Density(1.5), Density(2)]
        let third = try Builder(options: options).run()
        #expect(third.failures.isEmpty, "the retired file is written over, as dppx's own: \(third.failures)")
    }

    @Test("the default cache leaves a project folder that is published (the site's root, the served folder) for the user's cache folder")
    func cacheOutOfThePublishedFolder() throws {
        let fixture = BuildFixture()
        let project = fixture.source.path
        let home = ScratchFolder("dppx-home")
        setenv("XDG_CACHE_HOME", home.path, 1)
        defer { unsetenv("XDG_CACHE_HOME") }
        let inProject = BuildCache.path(output: fixture.output.path, cacheFolder: nil, workingFolder: project)
        #expect(inProject.hasPrefix(PathContainment.canonical(project) + "/.dppx-cache/"))
        let published = BuildCache.path(output: fixture.output.path, cacheFolder: nil, published: [project], workingFolder: project)
        #expect(published.hasPrefix(home.path + "/dppx/"), "\(published)")
        #expect(BuildCache.isInUserFolder(published))
        let elsewhere = BuildCache.path(output: fixture.output.path, cacheFolder: nil, published: [fixture.output.path + "/site"], workingFolder: project)
        #expect(elsewhere == inProject, "a published folder the project is not in changes nothing")
        #expect(BuildCache.path(output: fixture.output.path, cacheFolder: "given", published: [project], workingFolder: project).hasPrefix("given/"),
                "--cache-dir is taken as given")
    }
}
