import DPPXFiles
import Foundation

/// What keeps a browser's pages away from the machine: Chromium's own sandbox, and, on Linux
/// where `unshare` (util-linux) can make namespaces, a user, PID and network namespace of the
/// browser's own.
///
/// - The network namespace holds nothing, not even a loopback that is up: no page reaches any
///   host or local port, by any means (WebRTC, WebSocket, workers, frames, navigations). Every
///   request of the pages dppx measures is answered through the DevTools Fetch domain before a
///   connection would be made, and DevTools itself runs over a pipe (`PipeTransport`).
/// - The user namespace maps the browser to a user that is not root inside it, so Chromium
///   keeps its sandbox even when dppx runs as root (it refuses to, as root itself).
/// - The PID namespace's first process is the browser: when it ends, every renderer and helper
///   ends with it.
///
/// Where no namespace can be made (macOS; a kernel or container that forbids user namespaces),
/// the browser runs as dppx's user with the machine's network, its sandbox kept unless that
/// user is root, and `notice` says so in one line.
struct BrowserConfinement: Sendable, Equatable {
    /// The command the browser's own command line follows (`unshare` and its flags); empty
    /// when the browser runs in dppx's namespaces.
    var prefix: [String]
    /// Whether Chromium keeps its sandbox (no `--no-sandbox`).
    var sandbox: Bool
    /// Whether the browser runs in a network namespace with nothing in it.
    var networkClosed: Bool
    /// One line saying which protection is missing here, and why; nil when none is.
    var notice: String?

    /// How to confine a browser whose pages get `network`, here.
    static func here(network: Browser.Network) -> BrowserConfinement {
        let root = CurrentUser.isRoot
        switch namespaces {
        case .available(let unshare):
            return BrowserConfinement(prefix: [unshare] + flags(network: network), sandbox: true, networkClosed: network == .none, notice: nil)
        case .unavailable(let why):
            var confinement = BrowserConfinement(prefix: [], sandbox: !root, networkClosed: false, notice: nil)
            if network == .none {
                confinement.notice = "Chromium runs with this machine's network (\(why)): a measured page can reach local ports and other hosts"
                    + (root ? ", and runs without its sandbox, as root" : "")
            }
            return confinement
        }
    }

    /// The same confinement without Chromium's sandbox (which could not start), saying so.
    func withoutSandbox(because reason: String) -> BrowserConfinement {
        var copy = self
        copy.sandbox = false
        copy.notice = (notice.map { $0 + "; " } ?? "") + "Chromium runs without its sandbox (\(reason))"
        return copy
    }

    /// `unshare`'s flags: a user namespace in which the browser is not root (its own user id
    /// when that is not root), a PID namespace whose first process it is, and with `.none` an
    /// empty network namespace.
    static func flags(network: Browser.Network) -> [String] {
        let user = CurrentUser.isRoot ? 1 : CurrentUser.id
        let group = CurrentUser.isRoot ? 1 : CurrentUser.groupID
        return ["--user", "--map-user=\(user)", "--map-group=\(group)", "--pid", "--fork", "--kill-child"]
            + (network == .none ? ["--net"] : [])
    }

    /// Whether namespaces can be made here: `unshare`'s path, or why not.
    enum Namespaces: Sendable, Equatable {
        case available(String)
        case unavailable(String)
    }

    /// `unshare` (the first on PATH), when it makes every namespace `flags` asks for here (tried
    /// once a process, with `true`); else why not: macOS, no util-linux, or a kernel that refuses.
    static let namespaces: Namespaces = {
        #if canImport(Darwin)
        return .unavailable("macOS has no network namespaces")
        #else
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard let unshare = path.split(separator: ":").map({ $0 + "/unshare" }).first(where: FileStatus.isExecutableFile) else {
            return .unavailable("no unshare on PATH: install util-linux")
        }
        let refused = Namespaces.unavailable("\(unshare) could not make a user, PID and network namespace here: the kernel or container forbids user namespaces")
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: unshare)
        probe.arguments = flags(network: .none) + ["true"]
        probe.standardInput = FileHandle.nullDevice
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        do { try probe.run() } catch { return refused }
        probe.waitUntilExit()
        return probe.terminationStatus == 0 ? .available(unshare) : refused
        #endif
    }()
}
