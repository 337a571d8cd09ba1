import DPPXBuild
import NIOCore
import SystemPackage

/// Why the server could not start, worded for the person who typed the command.
public enum ServerError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ROOT does not exist (and no `--watch` build would create it).
    case rootMissing(String)
    /// ROOT is a file.
    case rootNotFolder(String)
    /// Another program listens on the port.
    case portInUse(host: String, port: Int)
    /// The address cannot be listened on (unknown host, no permission for a low port...).
    case cannotListen(host: String, port: Int, reason: String)
    /// The server stopped with an error after it had started.
    case stopped(String)
    /// Dev mode's first build could not run at all.
    case buildFailed(BuildError)
    /// The inspector's template cannot be used.
    case template(String)

    public var description: String {
        switch self {
        case .rootMissing(let root):
            "\(root): no such folder; build one first with 'dppx build SRC --out \(root)', or serve another folder: dppx serve DIR"
        case .rootNotFolder(let root):
            "\(root) is a file; dppx serve takes the folder to serve, e.g. dppx serve Public"
        case .portInUse(let host, let port):
            "port \(port) on \(host) is already in use by another program; stop it or choose another port, e.g. --port \(port == 65535 ? 8081 : port + 1)"
        case .cannotListen(let host, let port, let reason):
            "cannot listen on \(host):\(port): \(reason); check --host and --port"
        case .stopped(let reason):
            "the server stopped: \(reason)"
        case .buildFailed(let error):
            "the first build failed: \(error)"
        case .template(let reason):
            reason
        }
    }

    /// Whether the command line was wrong (ROOT missing or a file, `--watch SRC` missing):
    /// `dppx serve` exits 2 for it, 1 for a server that could not run.
    public var isUsageError: Bool {
        switch self {
        case .rootMissing, .rootNotFolder: true
        case .buildFailed(let error): error.isUsageError
        case .portInUse, .cannotListen, .stopped, .template: false
        }
    }

    /// Recognises the socket errors NIO reports when binding, by their error code.
    static func binding(_ error: any Error, host: String, port: Int) -> ServerError {
        if let io = error as? IOError, io.errnoCode == Errno.addressInUse.rawValue { return .portInUse(host: host, port: port) }
        return .cannotListen(host: host, port: port, reason: String(describing: error))
    }
}
