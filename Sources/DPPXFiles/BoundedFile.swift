import SystemPackage

/// A regular file read up to a size limit through one descriptor: never a named pipe or a
/// device (opened without blocking, then checked), never more than the limit, whatever the
/// file grows to between the check and the read. What a measured page is answered from: a page
/// asking for a 256 MB file made dppx hold it whole, several times.
public enum BoundedFile: Equatable, Sendable {
    /// Missing, not a regular file, or unreadable.
    case missing
    /// Larger than the limit: its size in bytes. Nothing was read.
    case tooLarge(Int)
    /// Read whole: its size in bytes.
    case read(Int)

    /// Streams the file at `path` to `body`, `chunkSize` bytes at a time, when it is a regular
    /// file of at most `limit` bytes (a file that grows past `limit` while read stops there and
    /// is `tooLarge`; `body` may then have had part of it).
    public static func stream(_ path: String, atMost limit: Int, chunkSize: Int = 1 << 16,
                              _ body: (UnsafeRawBufferPointer) -> Void) -> BoundedFile {
        guard let file = try? FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec, .nonBlocking]) else { return .missing }
        defer { try? file.close() }
        guard let status = try? FileStatus(descriptor: file), status.isRegularFile else { return .missing }
        guard status.size <= limit else { return .tooLarge(status.size) }
        var buffer = [UInt8](repeating: 0, count: max(1, min(chunkSize, limit + 1)))
        var total = 0
        while true {
            guard let count = try? buffer.withUnsafeMutableBytes({ try file.read(into: $0) }) else { return .missing }
            if count == 0 { return .read(total) }
            total += count
            if total > limit { return .tooLarge(total) }
            buffer.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
        }
    }

    /// The bytes of the file at `path` when it is a regular file of at most `limit` bytes; nil
    /// otherwise, with why in `outcome`.
    public static func bytes(_ path: String, atMost limit: Int) -> (outcome: BoundedFile, bytes: [UInt8]?) {
        var bytes: [UInt8] = []
        let outcome = stream(path, atMost: limit) { bytes.append(contentsOf: $0) }
        guard case .read = outcome else { return (outcome, nil) }
        return (outcome, bytes)
    }
}
