@testable import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXImaging
import DPPXTestSupport
import Foundation
import Testing

@Suite("Incremental builds, locking and interrupted runs")
struct IncrementalBuildTests {
    @Test("a second run with nothing changed rewrites no file")
    func noOp() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try TestImages.write(fixture.source("sub/b.png"), width: 100, height: 100, bands: 4)
        try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        let before = fixture.output.modificationTimes()
        Thread.sleep(forTimeInterval: 0.02)
        let report = try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        #expect(report.built.isEmpty)
        #expect(report.unchanged == ["a.jpg", "sub/b.png"])
        #expect(report.filesWritten == 0)
        #expect(fixture.output.modificationTimes() == before)
    }

    @Test("a touched but identical master is not rebuilt; a changed one is")
    func contentHash() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try TestImages.write(fixture.source("b.jpg"), width: 200, height: 100, seed: 5)
        try fixture.build()
        // Same bytes, new modification time.
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: fixture.source("a.jpg"))
        // New content, new size.
        try TestImages.write(fixture.source("b.jpg"), width: 300, height: 100, seed: 5)
        let report = try fixture.build()
        #expect(report.unchanged == ["a.jpg"])
        #expect(report.built == ["b.jpg"])
        #expect(try fixture.decoded("b.jpg").width == 150)
        let entry = try #require(try fixture.manifestOnDisk().images.first { $0.source == "b.jpg" })
        #expect(entry.cssSize == PixelSize(width: 150, height: 50))
    }

    @Test("a deleted master has its outputs removed; files dppx did not write are left alone")
    func deleted() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try TestImages.write(fixture.source("gone.jpg"), width: 200, height: 100)
        try fixture.build()
        try TestImages.writeBytes(Array("keep me".utf8), to: fixture.output("notes.txt"))
        try FileManager.default.removeItem(atPath: fixture.source("gone.jpg"))
        let report = try fixture.build()
        #expect(report.removed == ["gone.jpg", "gone@1.5x.jpg", "gone@2x.jpg"])
        #expect(fixture.output.files() == ["a.jpg", "a@1.5x.jpg", "a@2x.jpg", "dppx-manifest.json", "notes.txt"])
        #expect(try fixture.manifestOnDisk().images.map(\.source) == ["a.jpg"])
    }

    @Test("changing the densities or formats rebuilds and removes what is no longer wanted")
    func settingsChange() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 300, height: 150)
        try fixture.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp]))
        let report = try fixture.build(PlanSettings(densities: [Density(1), Density(2)], sourceDensityGiven: true))
        #expect(report.built == ["a.jpg"])
        #expect(fixture.output.files() == ["a.jpg", "a@2x.jpg", "dppx-manifest.json"])
    }

    @Test("outputs of another dppx pipeline version (or libvips version) are rebuilt")
    func pipelineChange() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 300, height: 150)
        try fixture.build()
        // What an older dppx leaves: the same cache, another settings fingerprint.
        let path = BuildCache.path(output: fixture.output.path, cacheFolder: fixture.cacheFolder)
        var cache = try #require(BuildCache.load(from: path))
        #expect(cache.settings == Builder(options: fixture.options()).settingsFingerprint())
        cache.settings = "made by dppx with pipeline 2"
        try cache.save(to: path)
        let report = try fixture.build()
        #expect(report.built == ["a.jpg"])
        #expect(BuildCache.load(from: path)?.settings == Builder(options: fixture.options()).settingsFingerprint())
    }

    @Test("only a build with an auto quality, in [build] or in a rule, carries the quality search's version in its fingerprint")
    func searchVersionOnlyForAuto() throws {
        let fixture = BuildFixture()
        func builder(rules: [ImageRule] = [], _ change: (inout EncodeSettings) -> Void = { _ in }) -> Builder {
            var options = fixture.options(PlanSettings(sourceDensityGiven: true, rules: rules))
            change(&options.encode)
            return Builder(options: options)
        }
        #expect(!builder().searchesQuality, "fixed qualities: a new search version rebuilds nothing")
        #expect(!builder(rules: [ImageRule(match: [PathGlob("photos/**")], webpQuality: .fixed(70))]).searchesQuality)
        #expect(builder { $0.jpegQuality = .auto }.searchesQuality)
        #expect(builder { $0.jxlQuality = .auto }.searchesQuality)
        #expect(builder(rules: [ImageRule(match: [PathGlob("photos/**")], avifQuality: .auto)]).searchesQuality,
                "a rule's auto searches too")
    }

    @Test("an output deleted by hand is written again")
    func repairs() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try fixture.build()
        try FileManager.default.removeItem(atPath: fixture.output("a@1.5x.jpg"))
        let report = try fixture.build()
        #expect(report.built == ["a.jpg"])
        #expect(FileManager.default.fileExists(atPath: fixture.output("a@1.5x.jpg")))
    }

    @Test("a master that breaks keeps the outputs it had, and the build says so")
    func brokenEdit() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try fixture.build()
        let before = try AtomicFile.read(fixture.output("a@2x.jpg"))
        try TestImages.writeBytes(Array("oops".utf8), to: fixture.source("a.jpg"))
        let report = try fixture.build()
        #expect(report.failures.map(\.file) == ["a.jpg"])
        #expect(try AtomicFile.read(fixture.output("a@2x.jpg")) == before)
        #expect(try fixture.manifestOnDisk().images.map(\.source) == ["a.jpg"])
    }

    @Test("temporary files of a killed run are cleaned up and the job completes")
    func interrupted() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try TestImages.writeBytes([1, 2, 3], to: fixture.output(".dppx-tmp-a.jpg.ABC123"))
        try TestImages.writeBytes([1, 2, 3], to: fixture.output("sub/.dppx-tmp-x.png.QWERTY"))
        let report = try fixture.build()
        #expect(report.succeeded)
        #expect(!fixture.output.files(includingHidden: true).contains { $0.contains(".dppx-tmp-") })
    }

    @Test("OUT holds only the variants and the manifest: the cache is in the cache folder, no lock file stays, older builds' state is removed")
    func noBuildStateInOutput() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try TestImages.writeBytes(Array("{}".utf8), to: fixture.output(".dppx-cache.json"))
        try TestImages.writeBytes(Array("4711\n".utf8), to: fixture.output(".dppx.lock"))
        try fixture.build()
        #expect(fixture.output.files(includingHidden: true) == ["a.jpg", "a@1.5x.jpg", "a@2x.jpg", "dppx-manifest.json"])
        let cacheFiles = fixture.cache.files(includingHidden: true)
        #expect(cacheFiles.count == 2, "\(cacheFiles)")
        #expect(cacheFiles.contains("build-state/.gitignore"), "a cache folder dppx creates keeps itself out of git")
        #expect(try fixture.build().unchanged == ["a.jpg"])
    }

    @Test("by default the cache goes to .dppx-cache in the project folder (dppx.toml's, else the working folder), or beside OUT when that is inside OUT")
    func defaultCacheFolder() throws {
        let fixture = BuildFixture()
        let project = fixture.source.path
        let resolvedOutput = PathContainment.canonical(fixture.output.path)
        let fromProject = BuildCache.path(output: fixture.output.path, cacheFolder: nil, workingFolder: project)
        #expect(fromProject.hasPrefix(PathContainment.canonical(project) + "/.dppx-cache/"))
        #expect(fromProject.contains("/\((resolvedOutput as NSString).lastPathComponent)-"))
        #expect(BuildCache.path(output: fixture.output.path + "/.", cacheFolder: nil, workingFolder: project) == fromProject,
                "one file per OUT, however it is spelled")
        try FileManager.default.createDirectory(atPath: fixture.output("sub"), withIntermediateDirectories: true)
        let fromInside = BuildCache.path(output: fixture.output.path, cacheFolder: nil, workingFolder: fixture.output("sub"))
        #expect(fromInside.hasPrefix((resolvedOutput as NSString).deletingLastPathComponent + "/.dppx-cache/"), "\(fromInside)")
        // With a dppx.toml, the project's folder, from whichever subfolder dppx runs.
        try TestImages.writeBytes(Array("[build]\n".utf8), to: fixture.source("dppx.toml"))
        try FileManager.default.createDirectory(atPath: fixture.source("pages/blog"), withIntermediateDirectories: true)
        let fromSubfolder = BuildCache.path(output: fixture.output.path, cacheFolder: nil, workingFolder: fixture.source("pages/blog"))
        #expect(fromSubfolder == fromProject, "\(fromSubfolder)")
    }

    @Test("a second build into a locked output folder stops with a message naming the holder")
    func locked() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 200, height: 100)
        try {
            let lock = try BuildLock(output: fixture.output.path)
            defer { withExtendedLifetime(lock) {} }
            do {
                try fixture.build()
                Issue.record("expected the lock to stop the build")
            } catch {
                #expect(String(describing: error).contains("pid \(getpid())"))
                #expect(String(describing: error).contains("another --out"))
            }
        }()
        #expect(try fixture.build().succeeded)
    }

    /// `/proc/locks` comes a page per read, and a lock released between two reads hides a line
    /// of the next page from that pass: with these 200 locks changing all the time, a single
    /// pass missed the holder 40 times in 3000. Linux only (elsewhere no pid is named).
    @Test("the holder is named every time, while other locks come and go by the thousand",
          .enabled(if: FileManager.default.isReadableFile(atPath: "/proc/locks")))
    func lockedWhileLocksChurn() throws {
        let fixture = BuildFixture()
        let held = try BuildLock(output: fixture.output.path)
        defer { withExtendedLifetime(held) {} }
        // Enough locks for several pages of /proc/locks, taken and released without pause.
        let churn = Churn()
        for worker in 0..<4 {
            let files = (0..<50).map { open(fixture.source("churn-\(worker)-\($0)"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644) }
            Thread {
                while !churn.stopping {
                    for fd in files { flock(fd, LOCK_EX) }
                    for fd in files { flock(fd, LOCK_UN) }
                }
                for fd in files { close(fd) }
                churn.finished()
            }.start()
        }
        defer { churn.stop(workers: 4) }
        var unnamed = 0
        for _ in 0..<3000 {
            do {
                _ = try BuildLock(output: fixture.output.path)
                Issue.record("the lock was taken twice")
            } catch .locked(_, let holder) {
                if holder != "pid \(getpid())" { unnamed += 1 }
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(unnamed == 0, "\(unnamed) of 3000 refusals did not name the holder")
    }

    /// Threads that take and release locks until told to stop.
    final class Churn: @unchecked Sendable {
        private let condition = NSCondition()
        private var stopRequested = false
        private var done = 0

        var stopping: Bool { condition.withLock { stopRequested } }

        func finished() { condition.withLock { done += 1; condition.signal() } }

        /// Asks the threads to stop and waits for `workers` of them to finish.
        func stop(workers: Int) {
            condition.withLock {
                stopRequested = true
                while done < workers { condition.wait() }
            }
        }
    }

    @Test("two masters that would write the same files both fail, naming each other")
    func collisions() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("logo.png"), width: 100, height: 100)
        try TestImages.write(fixture.source("logo@2x.png"), width: 100, height: 100)
        try TestImages.write(fixture.source("fine.png"), width: 100, height: 100)
        let report = try fixture.build()
        #expect(report.failures.map(\.file) == ["logo.png", "logo@2x.png"])
        #expect(report.failures[0].reason.contains("logo@2x.png"))
        #expect(report.built == ["fine.png"])
        // A JPEG and a WebP of the same name only collide when WebP variants are asked for.
        let other = BuildFixture()
        try TestImages.write(other.source("hero.jpg"), width: 100, height: 100)
        try TestImages.write(other.source("hero.webp"), width: 100, height: 100)
        #expect(try other.build().succeeded)
        let webp = try other.build(PlanSettings(sourceDensityGiven: true, extraFormats: [.webp])).failures
        #expect(webp.count == 2 && webp.allSatisfy { $0.reason.contains("(such as hero.webp)") }, "the file both would write is named: \(webp)")
    }

    @Test("the header-only prediction names and sizes exactly what a build writes")
    func prediction() throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("a.jpg"), width: 301, height: 201)
        try TestImages.write(fixture.source("icons/logo@3x.png"), width: 90, height: 60, bands: 4)
        try TestImages.write(fixture.source("turned.jpg"), width: 100, height: 200, orientation: 6)
        let settings = PlanSettings(sourceDensityGiven: true, extraFormats: [.webp])
        let predicted = try ManifestPredictor.predict(options: fixture.options(settings))
        let built = try fixture.build(settings).manifest
        func shape(_ manifest: Manifest) -> [String] {
            manifest.images.flatMap { image in image.variants.map { "\(image.source) \(image.cssSize) \($0.path) \($0.size)" } }
        }
        #expect(shape(predicted.manifest) == shape(built))
        #expect(predicted.inputs.count == 3)
    }
}
