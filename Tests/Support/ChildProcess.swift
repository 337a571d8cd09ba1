import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A program the tests run as a child process: started with `posix_spawn` and reaped with
/// `waitpid` on its own pid, polled, never `waitpid(-1)`.
///
/// Foundation's `Process` learns of exits from a monitor it shares between all children; once that
/// monitor stopped, every `waitUntilExit` in the test run blocked forever and an exited child was
/// never reaped, hanging the suite until CI's time limit. Here the waiting has no shared state.
///
/// The child gets this process's environment with `environment`'s additions (a nil value removes
/// the variable), stdin from /dev/null, default signal handling and an empty signal mask (a runner
/// that ignores SIGTERM or SIGINT must not pass that on), and no descriptor but 0, 1 and 2.
/// Released while it runs, it is killed (SIGKILL) and reaped.
public final class ChildProcess: @unchecked Sendable {
    /// Where the child's stdout or stderr goes.
    public enum Output: Sendable, Equatable {
        /// /dev/null.
        case discarded
        /// A file, created or truncated; stdout and stderr given the same path share it.
        case file(String)
        /// A pipe whose read end is `standardOutput` or `standardError`, for a caller that reads
        /// what the child prints while it runs. The caller must keep reading: a full pipe stops the child.
        case pipe
    }

    /// How the child ended.
    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        /// It exited with this code.
        case exited(Int32)
        /// A signal killed it.
        case signalled(Int32)
        /// Something else in this process reaped it (`waitpid(-1)`, SIGCHLD ignored): how it ended is lost.
        case reapedElsewhere

        /// The status a shell gives (`$?`): the exit code, or 128 + the signal. A program that
        /// exits 130 itself and one that SIGINT killed both give 130; `self` tells them apart.
        public var status: Int32 {
            switch self {
            case .exited(let code): return code
            case .signalled(let signal): return 128 + signal
            case .reapedElsewhere: return -1
            }
        }

        public var description: String {
            switch self {
            case .exited(let code): return "exit \(code)"
            case .signalled(let signal): return "killed by signal \(signal)"
            case .reapedElsewhere: return "reaped by something else in the test process, its status lost"
            }
        }
    }

    /// The program could not be started.
    public struct LaunchFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The program was still running when its time was up; it has been killed.
    public struct Timeout: Error, CustomStringConvertible {
        public let command: String
        public let seconds: Double
        public var description: String {
            "\(command) did not finish within \(seconds) s and was killed; see whether it waits for input or a lock, or is just slow here"
        }
    }

    /// What a program run to completion printed, and how it ended.
    public struct Completed: Sendable, CustomStringConvertible {
        public let termination: Termination
        public let stdout: String
        public let stderr: String

        /// The shell's exit status: the exit code, or 128 + the signal that killed it.
        public var status: Int32 { termination.status }

        public var description: String { "\(termination)\n--- stdout\n\(stdout)\n--- stderr\n\(stderr)" }
    }

    public let pid: pid_t
    /// The program's path and arguments, for messages.
    public let command: String
    /// The read end of the child's stdout when it is `.pipe`.
    public let standardOutput: FileHandle?
    /// The read end of the child's stderr when it is `.pipe`.
    public let standardError: FileHandle?

    private let lock = NSLock()
    private var reaped: Termination?

    /// Starts `executable` (a path; `PATH` is not searched) with `arguments`, in `directory` when
    /// given, else in this process's working directory.
    public init(_ executable: String, _ arguments: [String], environment: [String: String?] = [:], in directory: String? = nil,
                standardOutput: Output = .discarded, standardError: Output = .discarded) throws(LaunchFailure) {
        let command = ([executable] + arguments).joined(separator: " ")
        self.command = command

        // Descriptors the parent opens are close-on-exec, and the child closes every other one
        // above 2: a pipe's write end held by another process would keep its reader from ever
        // seeing the end.
        var opened: [Int32] = []
        defer { for descriptor in opened { close(descriptor) } }
        var fileDescriptors: [String: Int32] = [:]
        func childEnd(_ output: Output, role: String) throws(LaunchFailure) -> (child: Int32, parentRead: Int32?) {
            switch output {
            case .discarded:
                return (try Self.openForChild("/dev/null", for: command), nil)
            case .file(let path):
                if let descriptor = fileDescriptors[path] { return (descriptor, nil) }
                let descriptor = try Self.openForChild(path, for: command)
                fileDescriptors[path] = descriptor
                return (descriptor, nil)
            case .pipe:
                let (read, write) = try Self.makePipe(for: command, role: role)
                return (write, read)
            }
        }
        let input = try Self.openForChild("/dev/null", for: command, writing: false)
        opened.append(input)
        let output = try childEnd(standardOutput, role: "stdout")
        opened.append(output.child)
        if let read = output.parentRead { opened.append(read) }
        let errors = try childEnd(standardError, role: "stderr")
        if errors.child != output.child { opened.append(errors.child) }
        if let read = errors.parentRead { opened.append(read) }

        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }

        posix_spawn_file_actions_adddup2(&actions, input, 0)
        posix_spawn_file_actions_adddup2(&actions, output.child, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.child, 2)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        #if canImport(Glibc)
        if let directory {
            guard let addChdir = GlibcSpawnExtensions.addChdir else {
                throw LaunchFailure(description: "could not start \(executable) in \(directory): this C library lacks posix_spawn_file_actions_addchdir_np (glibc 2.29 or later has it)")
            }
            _ = addChdir(&actions, directory)
        }
        // Descriptors opened by libraries without close-on-exec stay out of the child too.
        _ = GlibcSpawnExtensions.addCloseFrom?(&actions, 3)
        #elseif canImport(Darwin)
        if let directory { posix_spawn_file_actions_addchdir_np(&actions, directory) }
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
        #endif
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard error == 0 else {
            let place = directory.map { " in \($0)" } ?? ""
            throw LaunchFailure(description: "could not start \(executable)\(place): \(String(cString: strerror(error))); check that it is installed and executable (scripts/install-deps --test installs the test tools)")
        }
        self.pid = pid
        // The parent keeps only the read ends of pipes; its copies of the write ends would hold them open.
        opened.removeAll { $0 == output.parentRead || $0 == errors.parentRead }
        self.standardOutput = output.parentRead.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        self.standardError = errors.parentRead.map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
    }

    deinit {
        if reapIfExited() == nil {
            kill(pid, SIGKILL)
            _ = waitAfterKill()
        }
    }

    /// Whether the child still runs; false once it exited (it is reaped then).
    public var isRunning: Bool { reapIfExited() == nil }

    /// How it ended, once it has (and has been reaped by `isRunning` or a wait); nil before.
    public var termination: Termination? {
        lock.lock()
        defer { lock.unlock() }
        return reaped
    }

    /// Waits up to `timeout` seconds for the child to end; nil if it still runs.
    public func wait(timeout: Double) -> Termination? {
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            if let ended = reapIfExited() { return ended }
            if ContinuousClock.now >= deadline { return nil }
            usleep(10_000)
        }
    }

    /// Sends `signal` to the child; nothing once it has been reaped (its pid may belong to another process by then).
    public func signal(_ signal: Int32) {
        lock.lock()
        defer { lock.unlock() }
        if reaped == nil { kill(pid, signal) }
    }

    /// Sends `signal`, waits up to `grace` seconds for the child to end, then kills it with SIGKILL.
    @discardableResult
    public func stop(_ signal: Int32 = SIGKILL, grace: Double = 30) -> Termination {
        self.signal(signal)
        if let ended = wait(timeout: grace) { return ended }
        self.signal(SIGKILL)
        return waitAfterKill()
    }

    /// Runs `executable` to completion with stdout and stderr captured through files (a chatty
    /// program never blocks on a full pipe). Blocks: call it off Swift's cooperative pool from async code.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                           in directory: String? = nil, timeout: Double = 300) throws -> Completed {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-run-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: capture, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let outPath = capture + "/out", errPath = capture + "/err"
        let child = try ChildProcess(executable, arguments, environment: environment, in: directory,
                                     standardOutput: .file(outPath), standardError: .file(errPath))
        guard let termination = child.wait(timeout: timeout) else {
            child.stop()
            throw Timeout(command: child.command, seconds: timeout)
        }
        return Completed(termination: termination,
                         stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
                         stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// Reaps the child if it has ended (`WNOHANG`), caching how; the cached value afterwards.
    private func reapIfExited() -> Termination? {
        lock.lock()
        defer { lock.unlock() }
        if let reaped { return reaped }
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid, let ended = Self.decode(status) {
                reaped = ended
                return ended
            }
            if result == -1 && errno == EINTR { continue }
            if result == -1 && errno == ECHILD {
                reaped = .reapedElsewhere
                return reaped
            }
            // 0: still running.
            return nil
        }
    }

    /// After SIGKILL: polls until the child is gone, which takes moments.
    private func waitAfterKill() -> Termination {
        while true {
            if let ended = reapIfExited() { return ended }
            usleep(5_000)
        }
    }

    /// A `waitpid` status decoded by hand (Swift has no `WIFEXITED`): the low 7 bits are the
    /// signal that ended the child, 0 for an exit, whose code is the next 8 bits; 0x7f is a stop.
    static func decode(_ status: Int32) -> Termination? {
        let signal = status & 0x7f
        if signal == 0 { return .exited((status >> 8) & 0xff) }
        if signal == 0x7f { return nil }
        return .signalled(signal)
    }

    private static func openForChild(_ path: String, for command: String, writing: Bool = true) throws(LaunchFailure) -> Int32 {
        let flags = writing ? O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC : O_RDONLY | O_CLOEXEC
        let descriptor = open(path, flags, 0o644)
        guard descriptor >= 0 else {
            throw LaunchFailure(description: "could not open \(path) for \(command): \(String(cString: strerror(errno))); check that its folder exists and is writable")
        }
        return descriptor
    }

    private static func makePipe(for command: String, role: String) throws(LaunchFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        let result = pipe(&ends)
        if result == 0 { for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) } }
        guard result == 0 else {
            throw LaunchFailure(description: "could not make a pipe for the \(role) of \(command): \(String(cString: strerror(errno))); too many open files?")
        }
        return (ends[0], ends[1])
    }
}

#if canImport(Glibc)
/// glibc's `posix_spawn_file_actions_addchdir_np` (2.29) and `..._addclosefrom_np` (2.34), which
/// its headers declare only under `_GNU_SOURCE`, and Swift's Glibc module is built without it:
/// looked up by name, nil where the C library lacks them.
private enum GlibcSpawnExtensions {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir? = function("posix_spawn_file_actions_addchdir_np")
    static let addCloseFrom: AddCloseFrom? = function("posix_spawn_file_actions_addclosefrom_np")

    private static func function<Function>(_ name: String) -> Function? {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), name) else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }
}
#endif
