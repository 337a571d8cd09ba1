import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension stat {
    /// The modification time in nanoseconds since 1970: `st_mtim` on Linux, `st_mtimespec` on
    /// macOS. The one place that knows the field's two names.
    public var modificationNanoseconds: Int64 {
        #if canImport(Darwin)
        Int64(st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st_mtimespec.tv_nsec)
        #else
        Int64(st_mtim.tv_sec) * 1_000_000_000 + Int64(st_mtim.tv_nsec)
        #endif
    }
}
