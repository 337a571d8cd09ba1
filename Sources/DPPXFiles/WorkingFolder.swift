#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's working folder: what a relative path on the command line is relative to.
public enum WorkingFolder {
    /// The working folder's absolute path (`getcwd`); `.` when it cannot be read (it was
    /// removed, or a folder above it cannot be searched).
    public static var path: String {
        guard let folder = getcwd(nil, 0) else { return "." }
        defer { free(folder) }
        return String(cString: folder)
    }
}
