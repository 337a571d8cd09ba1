import DPPXCore

/// A master found in the source folder.
public struct SourceFile: Hashable, Sendable {
    /// Relative to the source folder, with `/`.
    public let relativePath: String
    /// The path to open.
    public let absolutePath: String
    public let name: MasterName
    /// Size in bytes and modification time in nanoseconds: the cheap "unchanged?" check.
    public let byteCount: Int
    public let modified: Int64
    /// The file's inode: a file replaced by another (an editor's rename-over save) is a change
    /// even when size and time match.
    public let inode: UInt64
}
