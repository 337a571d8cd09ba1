import DPPXCore
import Foundation
import Testing

@Suite("Shards: which masters a job of a sharded build takes")
struct ShardTests {
    /// A few hundred paths in nested folders, as a site's masters are laid out.
    static func paths(_ count: Int, from start: Int = 0) -> [String] {
        (start..<(start + count)).map { "section-\($0 % 7)/album-\($0 % 13)/photo-\($0).jpg" }
    }

    @Test("the hash is 64-bit FNV-1a of the path's UTF-8 bytes (the published test vectors)")
    func fnv1aVectors() {
        #expect(Shard.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.fnv1a("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.fnv1a("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test("a path's shard is the hash scaled to N equal ranges, fixed for every machine and version")
    func documentedSlices() {
        // hash("a") = 0xaf63dc4c8601ec8c: in the 3rd quarter of the 64-bit range, the 11th of 16.
        #expect(Shard.index(of: "a", count: 4) == 3)
        #expect(Shard.index(of: "a", count: 16) == 11)
        #expect(Shard.index(of: "a", count: 1) == 1)
        // A change here would move masters between the shards of builds already running.
        let pinned = ["hero.jpg", "icons/logo@3x.png", "photos/2024/beach.webp"].map { Shard.index(of: $0, count: 4) }
        #expect(pinned == [Self.expected("hero.jpg"), Self.expected("icons/logo@3x.png"), Self.expected("photos/2024/beach.webp")])
    }

    /// The slice by the documented formula, computed apart from `Shard`: floor(hash * 4 / 2^64) + 1.
    static func expected(_ path: String) -> Int {
        var hash: UInt64 = 14695981039346656037
        for byte in Array(path.utf8) { hash = (hash ^ UInt64(byte)) &* 1099511628211 }
        return Int(hash >> 62) + 1
    }

    @Test("every path is in exactly one of the N shards, and they balance on a few hundred masters", arguments: [1, 2, 3, 4, 8])
    func partition(count: Int) throws {
        let paths = Self.paths(400)
        var sizes = [Int](repeating: 0, count: count)
        for path in paths {
            let owners = (1...count).filter { try! #require(Shard(index: $0, of: count)).contains(path) }
            #expect(owners.count == 1, "\(path)")
            sizes[owners[0] - 1] += 1
        }
        // As a fair random split: within 3.5 standard deviations of the binomial's mean.
        let p = 1 / Double(count)
        let spread = 3.5 * (400 * p * (1 - p)).squareRoot()
        #expect(sizes.allSatisfy { abs(Double($0) - 400 * p) <= spread }, "\(sizes)")
    }

    @Test("adding masters moves no other master to another shard")
    func stableWhenMastersAreAdded() {
        let before = Dictionary(uniqueKeysWithValues: Self.paths(300).map { ($0, Shard.index(of: $0, count: 4)) })
        let after = Dictionary(uniqueKeysWithValues: Self.paths(320).map { ($0, Shard.index(of: $0, count: 4)) })
        for (path, shard) in before { #expect(after[path] == shard, "\(path)") }
    }

    @Test("--shard takes K/N from 1 to N, and auto/N with JOB_COMPLETION_INDEX (0-based)")
    func parsing() throws {
        #expect(try ShardRequest(parsing: "2/4") == .fixed(Shard(index: 2, of: 4)!))
        #expect(try ShardRequest(parsing: "1/1") == .fixed(Shard(index: 1, of: 1)!))
        #expect(try ShardRequest(parsing: "auto/4") == .automatic(count: 4))
        #expect(try ShardRequest(parsing: "auto/4").resolve(environment: ["JOB_COMPLETION_INDEX": "0"]) == Shard(index: 1, of: 4))
        #expect(try ShardRequest(parsing: "auto/4").resolve(environment: ["JOB_COMPLETION_INDEX": "3"]) == Shard(index: 4, of: 4))
        #expect(try ShardRequest(parsing: "2/4").resolve(environment: ["JOB_COMPLETION_INDEX": "0"]) == Shard(index: 2, of: 4),
                "a fixed shard ignores the environment")
    }

    @Test("a bad --shard says what to type", arguments: [
        ("0/4", "numbered from 1 to 4"),
        ("5/4", "numbered from 1 to 4"),
        ("2/0", "N must be between 1"),
        ("2", "give K/N"),
        ("two/4", "give K/N"),
        ("2/4/8", "give K/N"),
        ("+2/4", "give K/N"),
        ("-1/4", "numbered from 1"),
    ])
    func badValues(text: String, message: String) {
        #expect(throws: ShardError.self) { try ShardRequest(parsing: text) }
        do { _ = try ShardRequest(parsing: text) } catch { #expect(error.description.contains(message), "\(error)") }
    }

    @Test("auto/N without a usable JOB_COMPLETION_INDEX names the variable and what to do")
    func autoWithoutIndex() throws {
        let request = try ShardRequest(parsing: "auto/4")
        for environment in [[:], ["JOB_COMPLETION_INDEX": ""]] {
            do { _ = try request.resolve(environment: environment); Issue.record("resolved without an index") } catch {
                #expect(error == .noIndex(count: 4))
                #expect(error.description.contains("JOB_COMPLETION_INDEX") && error.description.contains("--shard 1/4"))
            }
        }
        for value in ["4", "-1", "one", "1.0"] {
            do { _ = try request.resolve(environment: ["JOB_COMPLETION_INDEX": value]); Issue.record("resolved \(value)") } catch {
                #expect(error == .badIndex(value: value, count: 4))
                #expect(error.description.contains("from 0 to 3"))
            }
        }
    }

    @Test("a partial manifest's file name says its shard, and only such names are taken for one")
    func fileNames() {
        let shard = Shard(index: 2, of: 4)!
        #expect(PartialManifest.fileName(for: shard) == "dppx-manifest.shard-2-of-4.json")
        #expect(PartialManifest.shard(inFileName: "dppx-manifest.shard-2-of-4.json") == shard)
        for name in ["dppx-manifest.json", "dppx-manifest.shard-5-of-4.json", "dppx-manifest.shard-2-of-4.json.tmp",
                     "dppx-manifest.shard-02-of-4.json", "dppx-manifest.shard-2-4.json"] {
            #expect(PartialManifest.shard(inFileName: name) == nil, "\(name)")
        }
    }

    @Test("a partial manifest reads back as written, deterministically, and a shard that cannot exist is refused")
    func partialRoundTrip() throws {
        let image = Manifest.Image(source: "a.jpg", path: "a.jpg", sourceHash: "00", sourceDensity: Density(2),
                                   cssSize: PixelSize(width: 10, height: 5), densityIndependent: false, skippedDensities: [],
                                   variants: [Manifest.Variant(path: "a.jpg", density: Density(1), format: .jpeg,
                                                               size: PixelSize(width: 10, height: 5), bytes: 100, hash: "ab")])
        let partial = PartialManifest(shard: Shard(index: 1, of: 2)!, settings: "s", sources: "x", sourceCount: 3,
                                      masters: ["b.jpg", "a.jpg"], images: [image])
        let decoded = try PartialManifest.decode(partial.encoded())
        #expect(decoded == partial)
        #expect(decoded.masters == ["a.jpg", "b.jpg"])
        #expect(decoded.dppx == DPPXVersion.current)
        let text = String(decoding: partial.encoded(), as: UTF8.self)
        #expect(text.contains("\"index\" : 1") && text.hasSuffix("}\n"))
        let impossible = text.replacingOccurrences(of: "\"index\" : 1", with: "\"index\" : 3")
        #expect(throws: ManifestError.self) { try PartialManifest.decode(Array(impossible.utf8)) }
        #expect(throws: ManifestError.self) { try PartialManifest.decode(Manifest(images: [image]).encoded()) }
    }

    @Test("[build] shard in dppx.toml is refused: a shard is one job's setting")
    func notInProjectFile() {
        do {
            _ = try ProjectFile.settings(parsing: "[build]\nsource = \"src\"\nshard = \"2/4\"\n")
            Issue.record("accepted [build] shard")
        } catch {
            #expect(error.line == 3)
            #expect(error.description.contains("build.shard") && error.description.contains("--shard 2/4"), "\(error)")
        }
    }
}
