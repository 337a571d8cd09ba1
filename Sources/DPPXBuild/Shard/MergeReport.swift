import DPPXCore

/// What `dppx merge` did: the manifest written, each shard's share (for balance), what was removed.
public struct MergeReport: Sendable {
    /// One shard's part of the build.
    public struct ShardShare: Codable, Sendable {
        public var shard: Int
        public var of: Int
        public var file: String
        public var masters: Int
        public var images: Int
        public var files: Int
        public var bytes: Int
    }

    public var manifest: Manifest
    public var shards: [ShardShare] = []
    /// Files the previous manifest listed that no shard does (masters deleted since), removed.
    public var removed: [String] = []
    /// Orphans left in place, and the like.
    public var warnings: [FileProblem] = []
    public var seconds: Double = 0

    /// `merged 4 shards: 300 images, 900 files in 0.05 s`.
    public var summaryLine: String {
        let files = manifest.images.reduce(0) { $0 + $1.variants.count }
        var line = "merged \(shards.count) shard\(shards.count == 1 ? "" : "s"): \(manifest.images.count) image\(manifest.images.count == 1 ? "" : "s"), \(files) file\(files == 1 ? "" : "s")"
        if !removed.isEmpty { line += ", \(removed.count) file\(removed.count == 1 ? "" : "s") removed" }
        return line + " in \(String(format: "%.2f", seconds)) s"
    }
}
