#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process and the processes it started in its own process group (a browser's
/// renderers and helpers): ended together, so none outlives the run that started them.
public struct ProcessGroup: Sendable {
    public let leader: Int32

    /// The group `pid` leads; nil when it leads none (its children would then be out of reach).
    public init?(leader pid: Int32) {
        guard pid > 0, getpgid(pid) == pid else { return nil }
        leader = pid
    }

    /// Whether any process of the group is left (a zombie counts until reaped).
    public var isAlive: Bool { kill(-leader, 0) == 0 }

    /// Sends SIGTERM to every process of the group, waits up to `grace` seconds for them to
    /// end, then sends SIGKILL to whatever is left and waits up to a second more for it to be
    /// gone (a killed process lingers a moment on a busy machine), so that a caller that exits
    /// next leaves nothing behind.
    public func end(grace: Double = 2) {
        _ = kill(-leader, SIGTERM)
        var waited = 0.0
        while isAlive, waited < grace {
            usleep(20_000)
            waited += 0.02
        }
        guard isAlive else { return }
        _ = kill(-leader, SIGKILL)
        while isAlive, waited < grace + 1 {
            usleep(20_000)
            waited += 0.02
        }
    }
}
