import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A new folder of its own in the system's temporary folder (`TMPDIR`, else `/tmp`), readable
/// by this user only: where a program dppx starts keeps its state (a browser's profile). Removed,
/// with everything in it, by `remove()`.
public struct TemporaryFolder: Sendable {
    public let path: String

    /// Makes `<TMPDIR>/<prefix><six random characters>` (`mkdtemp`).
    public init(prefix: String) throws(FileError) {
        let environment = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        let base = environment.isEmpty ? "/tmp" : (environment.count > 1 && environment.hasSuffix("/") ? String(environment.dropLast()) : environment)
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        // The name mkdtemp filled in, read while its buffer is still lent.
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else {
            throw FileError(path: base + "/" + prefix + "XXXXXX", operation: .createDirectory, errno: errno)
        }
        path = made
    }

    /// Removes the folder and everything in it; a link inside is removed itself, never followed.
    /// What cannot be removed is left.
    public func remove() {
        guard let slash = path.lastIndex(of: "/") else { return }
        let parent = path[..<slash].isEmpty ? "/" : String(path[..<slash])
        guard let folder = try? Folder(path: parent, for: .remove) else { return }
        folder.removeTree(String(path[path.index(after: slash)...]))
    }
}
