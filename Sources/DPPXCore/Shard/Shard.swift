/// One slice of a build spread over N jobs (a CI matrix, a Kubernetes Indexed Job): shard K of
/// N, 1-based, takes the masters whose path falls in its slice.
///
/// A master's slice is a pure function of its path relative to SRC, so every machine and every
/// dppx version agrees without coordination, and adding or removing a master moves no other:
/// the 64-bit FNV-1a hash of the path's UTF-8 bytes (`/` separators) is scaled to N equal
/// ranges, `slice = hash * N / 2^64` (the hash's high bits, which FNV-1a mixes best).
public struct Shard: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1...count.
    public let index: Int
    public let count: Int

    /// The most shards a build may be cut into: far past any CI matrix or Indexed Job.
    public static let maximumCount = 100_000

    /// Nil unless 1 <= index <= count <= maximumCount.
    public init?(index: Int, of count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// `2/4`: what `--shard` prints and takes.
    public var description: String { "\(index)/\(count)" }

    /// `shard 2 of 4`, for messages.
    public var spelled: String { "shard \(index) of \(count)" }

    /// Whether the master (or any file) at `relativePath` belongs to this shard.
    public func contains(_ relativePath: String) -> Bool {
        Self.index(of: relativePath, count: count) == index
    }

    /// The 1-based shard of `count` that `relativePath` falls in.
    public static func index(of relativePath: String, count: Int) -> Int {
        let scaled = fnv1a(relativePath).multipliedFullWidth(by: UInt64(max(1, count)))
        return Int(scaled.high) + 1
    }

    /// 64-bit FNV-1a of the UTF-8 bytes (offset basis 14695981039346656037, prime 1099511628211).
    public static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private enum CodingKeys: String, CodingKey { case index, count }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let index = try container.decode(Int.self, forKey: .index)
        let count = try container.decode(Int.self, forKey: .count)
        guard let shard = Shard(index: index, of: count) else {
            throw DecodingError.dataCorruptedError(forKey: .index, in: container, debugDescription: "shard \(index) of \(count) does not exist")
        }
        self = shard
    }
}
