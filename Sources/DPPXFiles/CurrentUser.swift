#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The user and group this process runs as: what decides whether a program started from here
/// may keep its own sandbox (Chromium refuses to start its sandbox as root).
public enum CurrentUser {
    /// The real user id.
    public static var id: UInt32 { UInt32(getuid()) }
    /// The real group id.
    public static var groupID: UInt32 { UInt32(getgid()) }
    /// Whether this process runs as root.
    public static var isRoot: Bool { geteuid() == 0 }
}
