import DPPXCore

/// Why `dppx merge` wrote nothing: each case names the files (and shards) at fault and what to do.
public enum MergeError: Error, CustomStringConvertible, Equatable, Sendable {
    /// OUT is missing or not a folder.
    case noOutput(String)
    /// A PART that does not exist.
    case noSuchPart(String)
    /// A folder given as PART without any partial manifest in it.
    case noPartials(folder: String)
    /// A partial manifest that cannot be read or is not one.
    case unreadable(path: String, reason: String)
    /// Partial manifests of different shard counts.
    case mixedCounts(first: String, firstShard: Shard, other: String, otherShard: Shard)
    /// Two files for one shard.
    case duplicate(Shard, first: String, second: String)
    /// Shards absent from the files given.
    case missing([Shard], given: Int)
    case differentVersions(first: String, firstVersion: String, other: String, otherVersion: String)
    case differentSettings(first: String, other: String)
    /// Shards that saw different sets of masters (built from different commits).
    case differentSources(first: String, firstCount: Int, other: String, otherCount: Int)
    /// A shard claims a master whose path falls in another shard's slice.
    case outsideSlice(master: String, path: String, claimedBy: Shard, belongsTo: Shard)
    /// Two shards claim one master.
    case claimedTwice(master: String, first: String, second: String)
    /// Variant files the shards list that are not in OUT (or not at their recorded size).
    case filesMissing(paths: [String], total: Int, output: String)
    /// A listed path outside OUT.
    case badPath(path: String, partial: String)
    /// OUT could not be locked or written.
    case build(BuildError)

    public var description: String {
        switch self {
        case .noOutput(let path):
            "\(path): no such folder; build the shards into it (dppx build SRC --out \(path) --shard K/N) or copy their folders into it first"
        case .noSuchPart(let path):
            "\(path): no such file or folder; give the folders the shards built into, or their dppx-manifest.shard-K-of-N.json files"
        case .noPartials(let folder):
            "\(folder): holds no partial manifest (dppx-manifest.shard-K-of-N.json); build into it with 'dppx build SRC --out \(folder) --shard K/N', or give the folders the shards built into"
        case .unreadable(let path, let reason):
            "\(path): \(reason)"
        case .mixedCounts(let first, let firstShard, let other, let otherShard):
            "\(first) is \(firstShard.spelled) but \(other) is \(otherShard.spelled): shards of different builds cannot be merged; give only the \(firstShard.count) or only the \(otherShard.count) shards of one build (remove the other files)"
        case .duplicate(let shard, let first, let second):
            "\(shard.spelled) is given twice, \(first) and \(second); give each shard's partial manifest once"
        case .missing(let shards, let given):
            "missing \(shards.map(\.spelled).joined(separator: ", ")) (got \(given) of \(shards.first?.count ?? 0)); run 'dppx build --shard \(shards.first?.description ?? "K/N")' for each missing shard and give its folder or partial manifest too"
        case .differentVersions(let first, let firstVersion, let other, let otherVersion):
            "\(first) was built by dppx \(firstVersion) but \(other) by dppx \(otherVersion); build every shard with the same dppx version"
        case .differentSettings(let first, let other):
            "\(first) and \(other) were built with different settings (densities, formats, qualities, widths, rules or libvips version); build every shard with the same dppx.toml, flags and libvips"
        case .differentSources(let first, let firstCount, let other, let otherCount):
            "\(first) and \(other) saw different masters (\(firstCount) and \(otherCount) files in SRC): the shards were built from different versions of the sources; build every shard from the same commit"
        case .outsideSlice(let master, let path, let claimedBy, let belongsTo):
            "\(path) (\(claimedBy.spelled)) lists \(master), which belongs to \(belongsTo.spelled): the file was edited or comes from another tool; build that shard again"
        case .claimedTwice(let master, let first, let second):
            "\(master) is claimed by both \(first) and \(second); build those shards again from one commit with one dppx"
        case .filesMissing(let paths, let total, let output):
            "\(total) file\(total == 1 ? "" : "s") the shards wrote \(total == 1 ? "is" : "are") not in \(output) (or not at the size recorded), such as \(paths.joined(separator: ", ")); copy every shard's output folder into \(output) before merging"
        case .badPath(let path, let partial):
            "\(partial) lists \(path.debugDescription), which is not a path inside the output folder; build that shard again"
        case .build(let error):
            error.description
        }
    }

    /// Whether the command line was wrong (OUT or a PART missing): exit 2, as for every
    /// command, rather than 1 for shards that do not merge.
    public var isUsageError: Bool {
        switch self {
        case .noOutput, .noSuchPart: true
        case .build(let error): error.isUsageError
        default: false
        }
    }
}
