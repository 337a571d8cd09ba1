import DPPXCore
import DPPXTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `dppx build --shard K/N` and `dppx merge`, run as CI jobs run them: N processes at once into
/// one OUT, or into N folders copied together, then merged; compared byte for byte with one
/// plain `dppx build` of the same masters.
@Suite("Sharded builds and dppx merge on the command line")
struct ShardedBuildCommandTests {
    /// A project folder with `src/`: a few hundred small masters in nested folders, JPEG, PNG
    /// (some with alpha) and WebP; the photos (`@2x`) and icons (`@3x`) state their density and
    /// get three files each, the charts and banners keep their own size (one file).
    static func project(masters: Int = 240) throws -> ScratchFolder {
        let project = ScratchFolder("dppx-shard")
        for i in 0..<masters {
            let folder = "section-\(i % 5)/album-\(i % 3)" + (i % 4 == 0 ? "/deep" : "")
            let (name, bands): (String, Int) = switch i % 6 {
            case 0, 1, 2: ("photo-\(i)@2x.jpg", 3)
            case 3: ("icon-\(i)@3x.png", 4)
            case 4: ("chart-\(i).png", 3)
            default: ("banner-\(i).webp", 3)
            }
            try TestImages.write(project("src/\(folder)/\(name)"), width: 30 + i % 17, height: 20 + i % 11, bands: bands, seed: UInt64(i + 1))
        }
        // The masters without @Nx are 2x: every master gets density variants (1x, 1.5x, 2x).
        try "[build]\nsource-density = 2\n".write(toFile: project("dppx.toml"), atomically: true, encoding: .utf8)
        return project
    }

    /// Runs `dppx build src --out OUT --shard K/N` for every K at once, in N processes.
    static func shards(_ count: Int, out: (Int) -> String, in project: ScratchFolder, extra: [String] = [],
                       cache: (Int) -> String = { _ in "cache" }) async throws -> [ExternalProcess.Result] {
        let commands = (1...count).map { k in
            ["build", "src", "--out", out(k), "--shard", "\(k)/\(count)", "--cache-dir", cache(k)] + extra
        }
        let root = project.path
        return try await withThrowingTaskGroup(of: (Int, ExternalProcess.Result).self) { group in
            for (index, arguments) in commands.enumerated() {
                group.addTask { (index, try await DPPXBinary.run(arguments, in: root)) }
            }
            var results: [(Int, ExternalProcess.Result)] = []
            for try await result in group { results.append(result) }
            return results.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// Every file under `folder` (hidden ones too) and its bytes.
    static func tree(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        while let item = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + item, isDirectory: &isFolder), !isFolder.boolValue {
                files[item] = FileManager.default.contents(atPath: folder + "/" + item)
            }
        }
        return files
    }

    /// Expects two folders to hold the same files with the same bytes, naming the differences.
    static func expectSameTree(_ folder: String, as reference: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let got = tree(folder), want = tree(reference)
        #expect(got.keys.sorted() == want.keys.sorted(), "extra: \(Set(got.keys).subtracting(want.keys).sorted().prefix(5)), missing: \(Set(want.keys).subtracting(got.keys).sorted().prefix(5))", sourceLocation: sourceLocation)
        let different = want.keys.filter { got[$0] != nil && got[$0] != want[$0] }.sorted()
        #expect(different.isEmpty, "differ: \(different.prefix(5))", sourceLocation: sourceLocation)
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func copyTree(_ from: String, into to: String) throws {
        for (relative, bytes) in tree(from) {
            try TestImages.writeBytes(Array(bytes), to: to + "/" + relative)
        }
    }

    @Test("4 shards at once in 4 processes into one OUT, then merge: the files and manifest of one plain build, byte for byte")
    func concurrentShardsIntoOneOutput() async throws {
        let project = try Self.project()
        let plain = try await DPPXBinary.run(["build", "src", "--out", "plain", "--cache-dir", "plain-cache"], in: project.path)
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("240 images: 240 built"), "\(plain.stdout.suffix(300))")

        let results = try await Self.shards(4, out: { _ in "site" }, in: project)
        var built = 0
        for (k, result) in results.enumerated() {
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains("shard \(k + 1) of 4: wrote site/dppx-manifest.shard-\(k + 1)-of-4.json"), "\(result.stdout.suffix(300))")
            let line = try #require(result.stdout.split(separator: "\n").first { $0.contains(" images: ") })
            let count = try #require(Int(line.split(separator: " ")[0]))
            #expect(count > 30 && count < 90, "a fair share of 240: \(line)")
            built += count
        }
        #expect(built == 240, "every master built by exactly one shard")
        #expect(!FileManager.default.fileExists(atPath: project("site/dppx-manifest.json")), "a shard never writes the whole manifest")
        let caches = try FileManager.default.contentsOfDirectory(atPath: project("cache")).filter { $0.hasSuffix(".json") }.sorted()
        #expect(caches.count == 4 && caches.allSatisfy { $0.contains("-shard-") && $0.hasSuffix("-of-4.json") }, "one cache file per shard: \(caches)")

        let merge = try await DPPXBinary.run(["merge", "site", "--out", "site"], in: project.path)
        #expect(merge.status == 0, "\(merge)")
        #expect(merge.stdout.contains("merged 4 shards: 240 images, "), "\(merge)")
        for k in 1...4 { #expect(merge.stdout.contains("shard \(k) of 4: "), "\(merge.stdout)") }
        Self.expectSameTree(project("site"), as: project("plain"))

        // The usual commands read the merged manifest as they read a plain build's.
        let css = try await DPPXBinary.run(["css", "site"], in: project.path)
        let plainCSS = try await DPPXBinary.run(["css", "plain"], in: project.path)
        #expect(css.status == 0 && !css.stdout.isEmpty && css.stdout == plainCSS.stdout)

        // Again with nothing changed: every shard reuses what it built (its own cache file), and
        // the merge writes the same manifest.
        let again = try await Self.shards(4, out: { _ in "site" }, in: project)
        for result in again {
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(" 0 built, "), "\(result.stdout.suffix(300))")
        }
        #expect(try await DPPXBinary.run(["merge", "--out", "site", "--quiet"], in: project.path).status == 0)
        Self.expectSameTree(project("site"), as: project("plain"))
    }

    @Test("4 shards into 4 folders, copied together later, then merge: the same bytes as one plain build")
    func separateFoldersCopiedTogether() async throws {
        let project = try Self.project()
        #expect(try await DPPXBinary.run(["build", "src", "--out", "plain", "--cache-dir", "plain-cache"], in: project.path).status == 0)
        let results = try await Self.shards(4, out: { "shard-\($0)" }, in: project, cache: { "cache-\($0)" })
        for result in results { #expect(result.status == 0, "\(result)") }
        for k in 1...4 {
            let files = Self.tree(project("shard-\(k)")).keys
            #expect(files.contains("dppx-manifest.shard-\(k)-of-4.json") && !files.contains("dppx-manifest.json"))
            #expect(files.filter { $0.hasPrefix("dppx-manifest") }.count == 1, "a shard's folder holds its slice only")
        }
        // As CI artifacts are downloaded into one folder.
        for k in 1...4 { try Self.copyTree(project("shard-\(k)"), into: project("site")) }
        let merge = try await DPPXBinary.run(["merge", "site", "--out", "site"], in: project.path)
        #expect(merge.status == 0, "\(merge)")
        Self.expectSameTree(project("site"), as: project("plain"))

        // A master deleted: its shard's folder loses its files, but the site (restored from the
        // last run, as a CI cache or a bucket sync would) still has them; the merge removes them.
        let deleted = "section-2/album-1/photo-7@2x.jpg", owner = Shard.index(of: deleted, count: 4)
        try FileManager.default.removeItem(atPath: project("src/" + deleted))
        #expect(try await DPPXBinary.run(["build", "src", "--out", "plain", "--cache-dir", "plain-cache"], in: project.path).status == 0)
        for result in try await Self.shards(4, out: { "shard-\($0)" }, in: project, cache: { "cache-\($0)" }) { #expect(result.status == 0, "\(result)") }
        #expect(!FileManager.default.fileExists(atPath: project("shard-\(owner)/section-2/album-1/photo-7@2x.jpg")))
        for k in 1...4 { try Self.copyTree(project("shard-\(k)"), into: project("site")) }
        #expect(FileManager.default.fileExists(atPath: project("site/section-2/album-1/photo-7@2x.jpg")))
        let again = try await DPPXBinary.run(["merge", "site", "--out", "site"], in: project.path)
        #expect(again.status == 0 && again.stdout.contains("merged 4 shards: 239 images, 717 files, 3 files removed"), "\(again)")
        Self.expectSameTree(project("site"), as: project("plain"))

        // The partial manifests may also be given from where the shards wrote them.
        let elsewhere = project("site-2")
        for k in 1...4 {
            try Self.copyTree(project("shard-\(k)"), into: elsewhere)
            try FileManager.default.removeItem(atPath: elsewhere + "/dppx-manifest.shard-\(k)-of-4.json")
        }
        let fromParts = try await DPPXBinary.run(["merge", "shard-1/dppx-manifest.shard-1-of-4.json", "shard-2", "shard-3", "shard-4",
                                                  "--out", "site-2"], in: project.path)
        #expect(fromParts.status == 0, "\(fromParts)")
        Self.expectSameTree(elsewhere, as: project("plain"))
        #expect(FileManager.default.fileExists(atPath: project("shard-1/dppx-manifest.shard-1-of-4.json")), "files outside OUT are left alone")
    }

    @Test("a master deleted and one changed between two sharded runs end exactly as in a plain incremental build")
    func incrementalAcrossRuns() async throws {
        let project = try Self.project()
        #expect(try await DPPXBinary.run(["build", "src", "--out", "plain", "--cache-dir", "plain-cache"], in: project.path).status == 0)
        for result in try await Self.shards(4, out: { _ in "site" }, in: project) { #expect(result.status == 0, "\(result)") }
        #expect(try await DPPXBinary.run(["merge", "--out", "site"], in: project.path).status == 0)

        let deleted = "section-2/album-1/photo-7@2x.jpg"
        let changed = "section-1/album-1/photo-1@2x.jpg"
        #expect(FileManager.default.fileExists(atPath: project("src/" + changed)))
        try FileManager.default.removeItem(atPath: project("src/" + deleted))
        try TestImages.write(project("src/" + changed), width: 44, height: 26, seed: 99)

        let plain = try await DPPXBinary.run(["build", "src", "--out", "plain", "--cache-dir", "plain-cache"], in: project.path)
        #expect(plain.stdout.contains("239 images: 1 built, 238 unchanged, 3 files removed"), "\(plain.stdout.suffix(300))")
        let results = try await Self.shards(4, out: { _ in "site" }, in: project)
        let deletedShard = Shard.index(of: deleted, count: 4), changedShard = Shard.index(of: changed, count: 4)
        for (k, result) in results.enumerated() {
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.contains(" \(k + 1 == changedShard ? 1 : 0) built, "), "shard \(k + 1): \(result.stdout.suffix(300))")
            #expect(result.stdout.contains("3 files removed") == (k + 1 == deletedShard), "shard \(k + 1): \(result.stdout.suffix(300))")
        }
        let merge = try await DPPXBinary.run(["merge", "--out", "site"], in: project.path)
        #expect(merge.status == 0 && merge.stdout.contains("merged 4 shards: 239 images"), "\(merge)")
        Self.expectSameTree(project("site"), as: project("plain"))
        #expect(!FileManager.default.fileExists(atPath: project("site/section-2/album-1/photo-7@2x.jpg")))
    }

    @Test("a whole build into an OUT of shards never merged takes their work and leaves no partial manifest")
    func wholeBuildAfterShards() async throws {
        let project = try Self.project(masters: 24)
        #expect(try await DPPXBinary.run(["build", "src", "--out", "plain"], in: project.path).status == 0)
        for result in try await Self.shards(3, out: { _ in "site" }, in: project) { #expect(result.status == 0, "\(result)") }
        try FileManager.default.removeItem(atPath: project("src/section-1/album-1/photo-1@2x.jpg"))
        try FileManager.default.removeItem(atPath: project("plain"))
        #expect(try await DPPXBinary.run(["build", "src", "--out", "plain", "--cache-dir", "other"], in: project.path).status == 0)

        let whole = try await DPPXBinary.run(["build", "src", "--out", "site"], in: project.path)
        #expect(whole.status == 0, "\(whole)")
        #expect(whole.stdout.contains("3 files removed"), "the deleted master's files, listed only by a partial manifest: \(whole)")
        Self.expectSameTree(project("site"), as: project("plain"))
    }

    @Test("switching between shards and whole builds with other settings rebuilds: OUT ends as a fresh build's, byte for byte")
    func settingsChangeBetweenShardedAndWholeBuilds() async throws {
        let project = try Self.project(masters: 24)
        #expect(try await DPPXBinary.run(["build", "src", "--out", "fresh", "--cache-dir", "fresh-cache"], in: project.path).status == 0)
        /// How many masters a run built, from its summary line.
        func built(_ result: ExternalProcess.Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
            let line = try #require(result.stdout.split(separator: "\n").first { $0.contains(" built") }, "\(result)", sourceLocation: sourceLocation)
            let count = line.split(separator: ",").first { $0.hasSuffix(" built") }?.split(separator: " ").dropLast().last
            return try #require(count.flatMap { Int($0) }, "\(line)", sourceLocation: sourceLocation)
        }
        // The 12 JPEG masters' files differ between the two qualities (PNG and WebP keep theirs).
        let jpegs = 12

        // Shards, a whole build at quality 40, shards at the default again, merged.
        for result in try await Self.shards(2, out: { _ in "site" }, in: project) { #expect(result.status == 0, "\(result)") }
        let q40 = try await DPPXBinary.run(["build", "src", "--out", "site", "--quality", "40"], in: project.path)
        #expect(q40.status == 0, "\(q40)")
        let again = try await Self.shards(2, out: { _ in "site" }, in: project)
        #expect(try again.map { try built($0) }.reduce(0, +) >= jpegs, "\(again.map(\.stdout))")
        #expect(try await DPPXBinary.run(["merge", "--out", "site"], in: project.path).status == 0)
        Self.expectSameTree(project("site"), as: project("fresh"))

        // A whole build, shards at quality 40 never merged, a whole build at the default: the
        // partial manifests' entries are not the default's.
        #expect(try await DPPXBinary.run(["build", "src", "--out", "site"], in: project.path).status == 0)
        for result in try await Self.shards(2, out: { _ in "site" }, in: project, extra: ["--quality", "40"]) {
            #expect(result.status == 0, "\(result)")
        }
        let whole = try await DPPXBinary.run(["build", "src", "--out", "site"], in: project.path)
        #expect(try built(whole) >= jpegs, "\(whole)")
        Self.expectSameTree(project("site"), as: project("fresh"))
    }

    @Test("the merge writes the [css] file and rewrites the [rewrite] pages: the site of one plain build, byte for byte; shards touch neither")
    func mergeWritesStylesheetAndPages() async throws {
        func site() throws -> ScratchFolder {
            let project = try Self.project(masters: 24)
            try """
            [build]
            source = "src"
            out = "site/img"
            source-density = 2
            [css]
            file = "site/css/images.css"
            [rewrite]
            pages = ["site/**/*.html", "site/css/site.css"]
            root = "site"
            # The merge does not measure (it writes what the shards built); nor does the plain build compared with it.
            measure = false
            """.write(toFile: project("dppx.toml"), atomically: true, encoding: .utf8)
            let page = """
            <!doctype html><title>Album</title>
            <style>.cover { background-image: url(/img/section-1/album-0/photo-6.jpg) }</style>
            <img src="img/section-0/album-0/deep/photo-0.jpg" alt="">
            <p style="background: url('img/section-4/album-0/icon-9.png') no-repeat">Icons</p>
            <img src="/img/section-2/album-2/photo-2.jpg" alt="">

            """
            try TestImages.writeBytes(Array(page.utf8), to: project("site/index.html"))
            try TestImages.writeBytes(Array(page.replacingOccurrences(of: "\"img/", with: "\"../img/").utf8), to: project("site/blog/post.html"))
            try TestImages.writeBytes(Array(".hero { background: url(../img/section-1/album-1/photo-1.jpg) }\n".utf8), to: project("site/css/site.css"))
            return project
        }
        let whole = try site(), sharded = try site()
        let untouched = Self.tree(sharded("site"))
        let plain = try await DPPXBinary.run(["build"], in: whole.path)
        #expect(plain.status == 0 && plain.stdout.contains("wrote site/css/images.css") && plain.stdout.contains("rewrote 3 pages"), "\(plain)")

        for result in try await Self.shards(3, out: { _ in "site/img" }, in: sharded) { #expect(result.status == 0, "\(result)") }
        for page in ["index.html", "blog/post.html", "css/site.css"] {
            #expect(Self.tree(sharded("site"))[page] == untouched[page], "a shard rewrote \(page)")
        }
        #expect(!FileManager.default.fileExists(atPath: sharded("site/css/images.css")), "a shard wrote the stylesheet")

        let merge = try await DPPXBinary.run(["merge"], in: sharded.path)
        #expect(merge.status == 0, "\(merge)")
        #expect(merge.stdout.contains("wrote site/css/images.css") && merge.stdout.contains("rewrote 3 pages"), "\(merge)")
        Self.expectSameTree(sharded("site"), as: whole("site"))
        let rewritten = String(decoding: try Self.bytes(sharded("site/index.html")), as: UTF8.self)
        #expect(rewritten.contains("photo-0@2x.jpg 2x") && rewritten.contains("photo-2@2x.jpg 2x"), "\(rewritten)")
        #expect(try Self.bytes(sharded("site/css/images.css")).count > 0)

        // A second merge of the same shards changes nothing.
        let merged = Self.tree(sharded("site"))
        for result in try await Self.shards(3, out: { _ in "site/img" }, in: sharded) { #expect(result.status == 0, "\(result)") }
        let again = try await DPPXBinary.run(["merge", "--quiet"], in: sharded.path)
        #expect(again.status == 0 && again.stdout.isEmpty, "\(again)")
        #expect(Self.tree(sharded("site")) == merged)
    }

    @Test("shards share OUT with each other, but not with a whole build, a merge or the same shard (a flock on OUT, shared or exclusive, and one per shard)")
    func locks() async throws {
        let project = try Self.project(masters: 6)
        try FileManager.default.createDirectory(atPath: project("site"), withIntermediateDirectories: true)
        let descriptor = open(project("site"), O_RDONLY | O_DIRECTORY)
        defer { close(descriptor) }
        // As a running shard holds it.
        #expect(flock(descriptor, LOCK_SH | LOCK_NB) == 0)
        let shard = try await DPPXBinary.run(["build", "src", "--out", "site", "--shard", "1/2"], in: project.path)
        #expect(shard.status == 0, "another shard may write at the same time: \(shard)")
        let whole = try await DPPXBinary.run(["build", "src", "--out", "site"], in: project.path)
        #expect(whole.status == 1 && whole.stderr.contains("site: another dppx build (pid \(getpid())) is writing this folder"), "\(whole)")
        let merge = try await DPPXBinary.run(["merge", "--out", "site"], in: project.path)
        #expect(merge.status == 1 && merge.stderr.contains("is writing this folder"), "\(merge)")
        // As a whole build or a merge holds it.
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let blocked = try await DPPXBinary.run(["build", "src", "--out", "site", "--shard", "2/2"], in: project.path)
        #expect(blocked.status == 1 && blocked.stderr.contains("is writing this folder"), "\(blocked)")
        #expect(flock(descriptor, LOCK_UN) == 0)

        // The same shard twice at once (a retried job): its lock beside its cache file.
        let lockName = try #require(try FileManager.default.contentsOfDirectory(atPath: project(".dppx-cache"))
            .first { $0.hasSuffix("-shard-1-of-2.json.lock") })
        let shardLock = open(project(".dppx-cache/" + lockName), O_RDWR)
        defer { close(shardLock) }
        #expect(flock(shardLock, LOCK_EX | LOCK_NB) == 0)
        let twice = try await DPPXBinary.run(["build", "src", "--out", "site", "--shard", "1/2"], in: project.path)
        #expect(twice.status == 1 && twice.stderr.contains("site (shard 1 of 2): another dppx build (pid \(getpid())) is writing this folder"), "\(twice)")
        let other = try await DPPXBinary.run(["build", "src", "--out", "site", "--shard", "2/2"], in: project.path)
        #expect(other.status == 0, "\(other)")
    }

    @Test("slices stay stable when masters are added: only the new masters' shards build anything")
    func stableSlices() async throws {
        let project = try Self.project(masters: 200)
        for result in try await Self.shards(4, out: { _ in "site" }, in: project) { #expect(result.status == 0, "\(result)") }
        func masters() throws -> [[String]] {
            try (1...4).map { k in try PartialManifest.decode(Self.bytes(project("site/dppx-manifest.shard-\(k)-of-4.json"))).masters }
        }
        let before = try masters()
        let added = ["new/one.jpg", "section-0/album-0/two.jpg", "zz/three.png"]
        for (i, path) in added.enumerated() { try TestImages.write(project("src/" + path), width: 40, height: 24, seed: UInt64(500 + i)) }
        let results = try await Self.shards(4, out: { _ in "site" }, in: project)
        let after = try masters()
        let receiving = Set(added.map { Shard.index(of: $0, count: 4) })
        for k in 1...4 {
            let new = Set(after[k - 1]).subtracting(before[k - 1])
            #expect(Set(before[k - 1]).isSubset(of: after[k - 1]), "shard \(k) kept its masters")
            #expect(new == Set(added.filter { Shard.index(of: $0, count: 4) == k }), "shard \(k) took only its new masters")
            let builtNothing = results[k - 1].stdout.contains(" 0 built, ")
            #expect(builtNothing == !receiving.contains(k), "shard \(k): \(results[k - 1].stdout.suffix(200))")
        }
    }

    @Test("merge refuses, naming the files, a missing shard, a duplicate, other settings, another shard count, another dppx, other sources, a master claimed twice and absent files")
    func refusals() async throws {
        let project = try Self.project(masters: 60)
        for result in try await Self.shards(4, out: { "shard-\($0)" }, in: project, cache: { "cache-\($0)" }) { #expect(result.status == 0, "\(result)") }
        let site = project("site")
        for k in 1...4 { try Self.copyTree(project("shard-\(k)"), into: site) }
        let shard3 = project("site/dppx-manifest.shard-3-of-4.json")
        func merge(_ parts: [String]) async throws -> ExternalProcess.Result {
            let result = try await DPPXBinary.run(["merge"] + parts + ["--out", "site"], in: project.path)
            #expect(!FileManager.default.fileExists(atPath: project("site/dppx-manifest.json")), "nothing merged: \(result)")
            #expect(result.status == 1, "\(result)")
            return result
        }

        let missing = try await merge(["shard-1", "shard-2", "shard-4"])
        #expect(missing.stderr.contains("missing shard 3 of 4 (got 3 of 4)"), "\(missing)")
        #expect(missing.stderr.contains("--shard 3/4"), "\(missing)")

        // Shard 2 built again into another folder: two manifests for one shard.
        #expect(try await DPPXBinary.run(["build", "src", "--out", "again", "--shard", "2/4", "--cache-dir", "cache-2"], in: project.path).status == 0)
        let duplicate = try await merge(["shard-1", "shard-2", "again", "shard-3", "shard-4"])
        #expect(duplicate.stderr.contains("shard 2 of 4 is given twice, shard-2/dppx-manifest.shard-2-of-4.json and again/dppx-manifest.shard-2-of-4.json"), "\(duplicate)")

        // Shard 3 built with another JPEG quality.
        #expect(try await DPPXBinary.run(["build", "src", "--out", "q70", "--shard", "3/4", "--quality", "70", "--cache-dir", "cache-q"], in: project.path).status == 0)
        let settings = try await merge(["shard-1", "shard-2", "q70", "shard-4"])
        #expect(settings.stderr.contains("shard-1/dppx-manifest.shard-1-of-4.json and q70/dppx-manifest.shard-3-of-4.json were built with different settings"), "\(settings)")

        // A shard of a two-way split among the four.
        #expect(try await DPPXBinary.run(["build", "src", "--out", "halves", "--shard", "1/2", "--cache-dir", "cache-h"], in: project.path).status == 0)
        let counts = try await merge(["shard-1", "halves"])
        #expect(counts.stderr.contains("is shard 1 of 4 but halves/dppx-manifest.shard-1-of-2.json is shard 1 of 2"), "\(counts)")

        // Shard 4 as another dppx version wrote it.
        var fourth = try PartialManifest.decode(Self.bytes(project("shard-4/dppx-manifest.shard-4-of-4.json")))
        fourth.dppx = "0.0.9"
        try TestImages.writeBytes(fourth.encoded(), to: project("site/dppx-manifest.shard-4-of-4.json"))
        let version = try await merge(["site"])
        #expect(version.stderr.contains("site/dppx-manifest.shard-1-of-4.json was built by dppx \(DPPXVersion.current) but site/dppx-manifest.shard-4-of-4.json by dppx 0.0.9"), "\(version)")
        try Self.copyTree(project("shard-4"), into: site)

        // Shard 2 built again after a master was added to SRC: another commit.
        try TestImages.write(project("src/late/added.jpg"), width: 40, height: 30)
        #expect(try await DPPXBinary.run(["build", "src", "--out", "later", "--shard", "2/4", "--cache-dir", "cache-l"], in: project.path).status == 0)
        try FileManager.default.removeItem(atPath: project("src/late/added.jpg"))
        let sources = try await merge(["shard-1", "later", "shard-3", "shard-4"])
        #expect(sources.stderr.contains("shard-1/dppx-manifest.shard-1-of-4.json and later/dppx-manifest.shard-2-of-4.json saw different masters (60 and 61 files in SRC)"), "\(sources)")

        // Shard 3's manifest edited to claim a master of shard 1 as well.
        let first = try PartialManifest.decode(Self.bytes(project("shard-1/dppx-manifest.shard-1-of-4.json")))
        var third = try PartialManifest.decode(Self.bytes(shard3))
        let stolen = try #require(first.masters.first)
        third.masters.append(stolen)
        try TestImages.writeBytes(third.encoded(), to: shard3)
        let claimed = try await merge(["site"])
        #expect(claimed.stderr.contains("\(stolen) is claimed by both site/dppx-manifest.shard-1-of-4.json and site/dppx-manifest.shard-3-of-4.json"), "\(claimed)")
        try Self.copyTree(project("shard-3"), into: site)

        // One variant of shard 4 not copied.
        let lost = try #require(PartialManifest.decode(Self.bytes(project("shard-4/dppx-manifest.shard-4-of-4.json"))).images.first?.variants.first)
        try FileManager.default.removeItem(atPath: project("site/" + lost.path))
        let absent = try await merge(["site"])
        #expect(absent.stderr.contains("1 file the shards wrote is not in site"), "\(absent)")
        #expect(absent.stderr.contains("site/" + lost.path), "\(absent)")

        // Complete again: merged.
        try Self.copyTree(project("shard-4"), into: site)
        let merged = try await DPPXBinary.run(["merge", "--out", "site"], in: project.path)
        #expect(merged.status == 0, "\(merged)")
        #expect(FileManager.default.fileExists(atPath: project("site/dppx-manifest.json")))
        #expect(!FileManager.default.fileExists(atPath: shard3), "the merged partial manifests leave OUT")
    }

    @Test("--shard auto/N takes the shard from JOB_COMPLETION_INDEX (0-based); bad shard use is exit 2 with a hint")
    func commandLine() async throws {
        let project = try Self.project(masters: 12)
        let auto = try await DPPXBinary.run(["build", "src", "--out", "site", "--shard", "auto/3"], in: project.path,
                                            environment: ["JOB_COMPLETION_INDEX": "1"])
        #expect(auto.status == 0, "\(auto)")
        #expect(FileManager.default.fileExists(atPath: project("site/dppx-manifest.shard-2-of-3.json")))
        let expected = (try FileManager.default.subpathsOfDirectory(atPath: project("src"))).filter { $0.contains(".") }
            .filter { Shard.index(of: $0, count: 3) == 2 }.count
        #expect(auto.stdout.contains("\(expected) image\(expected == 1 ? "" : "s"): \(expected) built"), "\(auto)")

        try "[build]\nsource = \"src\"\nout = \"site\"\nshard = \"1/2\"\n".write(toFile: project("dppx.toml"), atomically: true, encoding: .utf8)
        let fromFile = try await DPPXBinary.run(["build"], in: project.path)
        #expect(fromFile.status == 2 && fromFile.stderr.contains("dppx.toml:4: build.shard is not a project setting"), "\(fromFile)")
        try FileManager.default.removeItem(atPath: project("dppx.toml"))

        for (arguments, hint) in [
            (["--shard", "auto/3"], "JOB_COMPLETION_INDEX"),
            (["--shard", "0/3"], "numbered from 1 to 3"),
            (["--shard", "1-3"], "give K/N"),
            (["--shard", "1/3", "--watch"], "drop --watch or --shard"),
            (["--shard", "1/3", "--css", "site.css"], "dppx css OUT -o site.css"),
        ] {
            let result = try await DPPXBinary.run(["build", "src", "--out", "other"] + arguments, in: project.path,
                                                  environment: ["JOB_COMPLETION_INDEX": nil])
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(hint), "\(arguments): \(result)")
            #expect(!FileManager.default.fileExists(atPath: project("other")), "nothing was written")
        }
        let noParts = try await DPPXBinary.run(["merge", "--out", "nowhere"], in: project.path)
        #expect(noParts.status == 2 && noParts.stderr.contains("nowhere: no such folder"), "wrong usage: \(noParts)")
        #expect(try await DPPXBinary.run(["build", "src", "--out", "plain-only"], in: project.path).status == 0)
        let unsharded = try await DPPXBinary.run(["merge", "--out", "plain-only"], in: project.path)
        #expect(unsharded.status == 1 && unsharded.stderr.contains("plain-only: holds no partial manifest"), "\(unsharded)")
    }
}
