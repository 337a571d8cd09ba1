import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A program started with descriptors of the caller's choosing (Foundation's `Process` passes
/// only the first three), in a process group of its own, with every signal at its default and
/// none blocked: a child started from a thread that blocks signals (a thread pool's) would
/// otherwise inherit that mask, and a shell that never sees SIGCHLD or SIGTERM waits forever.
public final class SpawnedProcess: @unchecked Sendable {
    /// Its process id, which is also its process group's.
    public let id: Int32
    /// Its wait status once reaped; guarded by `lock`.
    private var status: Int32?
    private let lock = NSLock()

    private init(id: Int32) { self.id = id }

    /// Starts `executable` with `arguments` (after its name) and `environment`, descriptor
    /// `child` of the new process a copy of the caller's `parent` for each pair of
    /// `descriptors` (nil: /dev/null). Descriptors the caller opened close-on-exec stay out of it.
    public static func spawn(_ executable: String, _ arguments: [String], environment: [String: String],
                             descriptors: [(child: Int32, parent: Int32?)]) throws(FileError) -> SpawnedProcess {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for pair in descriptors {
            if let parent = pair.parent {
                posix_spawn_file_actions_adddup2(&actions, parent, pair.child)
            } else {
                posix_spawn_file_actions_addopen(&actions, pair.child, "/dev/null", O_RDWR, 0)
            }
        }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number: Int32 in 1..<32 where number != SIGKILL && number != SIGSTOP { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        var flags = Int32(POSIX_SPAWN_SETPGROUP) | Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        // Descriptors a library opened without close-on-exec stay out of the child too.
        #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #elseif canImport(Glibc)
        _ = closeFrom?(&actions, (descriptors.map(\.child).max() ?? 2) + 1)
        #endif
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw FileError(path: executable, operation: .execute, errno: result) }
        return SpawnedProcess(id: pid)
    }

    /// Whether it is still running (reaping it once it has ended).
    public var isRunning: Bool {
        lock.withLock {
            guard status == nil else { return false }
            var code: Int32 = 0
            let reaped = waitpid(id, &code, WNOHANG)
            if reaped == id || (reaped < 0 && errno == ECHILD) { status = code }
            return status == nil
        }
    }

    /// A pipe whose both ends close on exec: `read` and `write` descriptors.
    public static func pipe() throws(FileError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard systemPipe(&ends) == 0 else { throw FileError(path: "a pipe", operation: .execute, errno: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }

    /// Closes a descriptor the caller no longer needs.
    public static func close(_ descriptor: Int32) {
        _ = systemClose(descriptor)
    }
}

#if canImport(Glibc)
/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its headers declare
/// only for `_GNU_SOURCE`; nil on an older glibc.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

private let systemPipe = Glibc.pipe
private let systemClose = Glibc.close
#elseif canImport(Musl)
private let systemPipe = Musl.pipe
private let systemClose = Musl.close
#elseif canImport(Darwin)
private let systemPipe = Darwin.pipe
private let systemClose = Darwin.close
#endif
