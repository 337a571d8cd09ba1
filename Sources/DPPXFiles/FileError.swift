import SystemPackage

/// A file operation that failed: the file, the operation and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case read, write, remove, createDirectory = "create folder", list, lock, execute = "run"
    }

    public let path: String
    public let operation: Operation
    public let errno: Int32
    public let detail: String?

    public init(path: String, operation: Operation, errno: Int32, detail: String? = nil) {
        self.path = path
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    /// The same, from the `Errno` a system call threw.
    public init(path: String, operation: Operation, _ code: Errno, detail: String? = nil) {
        self.init(path: path, operation: operation, errno: code.rawValue, detail: detail)
    }

    /// The system's reason as a value (`.noSuchFileOrDirectory`, ...).
    public var code: Errno { Errno(rawValue: errno) }

    public var description: String {
        let reason = detail ?? code.description
        let remedy: String
        switch code {
        case .noSuchFileOrDirectory: remedy = operation == .read ? "; check the path" : ""
        case .permissionDenied, .notPermitted, .readOnlyFileSystem: remedy = "; check the folder's permissions or choose another"
        case .noSpace, .diskQuotaExceeded: remedy = "; free some disk space and run again"
        default: remedy = ""
        }
        return "\(path): cannot \(operation.rawValue): \(reason)\(remedy)"
    }
}

extension Errno {
    /// The `Errno` an operation of swift-system threw (it throws nothing else); `.ioError` for
    /// anything that is not one.
    static func of(_ error: any Error) -> Errno {
        error as? Errno ?? .ioError
    }
}
