import Foundation

/// What `dppx build --shard K/N` writes instead of `dppx-manifest.json`: the manifest entries
/// of its slice, and what `dppx merge` needs to check that N such files make one whole build
/// (`dppx-manifest.shard-K-of-N.json`, beside the variants).
public struct PartialManifest: Codable, Hashable, Sendable {
    /// Bumped when the layout changes incompatibly.
    public static let currentVersion = 1

    public var version: Int
    /// Which slice of how many.
    public var shard: Shard
    /// The dppx that built it (`DPPXVersion.current`).
    public var dppx: String
    /// Identifies every setting that changes output bytes (densities, formats, qualities,
    /// pipeline, libvips): shards built with different settings cannot be merged.
    public var settings: String
    /// SHA-256 of every master path the shard saw in SRC (its own and the others'), one per
    /// line: shards that saw different sources (another commit) cannot be merged.
    public var sources: String
    /// How many masters SRC held.
    public var sourceCount: Int
    /// The masters of this slice, relative to SRC, sorted: built, unchanged or failed.
    public var masters: [String]
    /// The manifest entries of those masters, as a whole build writes them.
    public var images: [Manifest.Image]

    public init(shard: Shard, settings: String, sources: String, sourceCount: Int, masters: [String],
                images: [Manifest.Image], dppx: String = DPPXVersion.current) {
        self.version = Self.currentVersion
        self.shard = shard
        self.dppx = dppx
        self.settings = settings
        self.sources = sources
        self.sourceCount = sourceCount
        self.masters = masters.sorted()
        self.images = Manifest(images: images).images
    }

    /// `dppx-manifest.shard-2-of-4.json`.
    public static func fileName(for shard: Shard) -> String {
        "dppx-manifest.shard-\(shard.index)-of-\(shard.count).json"
    }

    /// The shard a partial manifest's file name names, or nil for any other name.
    public static func shard(inFileName name: String) -> Shard? {
        let prefix = "dppx-manifest.shard-", suffix = ".json"
        guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
        let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
        let parts = middle.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1] == "of", let index = Int(parts[0]), let count = Int(parts[2]),
              String(index) == parts[0], String(count) == parts[2] else { return nil }
        return Shard(index: index, of: count)
    }

    /// The deterministic JSON text, ending in a newline.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return Array(data) + [UInt8(ascii: "\n")]
    }

    /// Reads a partial manifest; the error says what is wrong in terms a user can act on.
    public static func decode(_ bytes: some Collection<UInt8>) throws(ManifestError) -> PartialManifest {
        let partial: PartialManifest
        do {
            partial = try JSONDecoder().decode(PartialManifest.self, from: Data(bytes))
        } catch {
            throw .malformed(detail: "not a partial manifest of 'dppx build --shard': \(error)")
        }
        guard partial.version == currentVersion else { throw .unsupportedVersion(partial.version) }
        try ManifestLimits.check(partial.images, field: "images")
        return partial
    }

    /// The text whose SHA-256 is `sources`: SRC's master paths, sorted, one per line.
    public static func listing(_ paths: [String]) -> [UInt8] {
        Array(paths.sorted().joined(separator: "\n").utf8)
    }
}

