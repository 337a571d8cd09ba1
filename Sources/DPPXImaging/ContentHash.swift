import CVips

/// SHA-256 as lower-case hex: the content key of masters (incremental builds) and variants
/// (ETags, manifest). GLib's implementation, already linked through libvips.
public struct ContentHash {
    private let checksum: OpaquePointer

    public init() { checksum = g_checksum_new(G_CHECKSUM_SHA256) }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        g_checksum_update(checksum, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The hex digest; the hasher is finished afterwards.
    public func finish() -> String {
        defer { g_checksum_free(checksum) }
        return String(cString: g_checksum_get_string(checksum))
    }

    /// The hex SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var hash = ContentHash()
        bytes.withUnsafeBytes { hash.update($0) }
        return hash.finish()
    }
}
