import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file operation that failed: the file, the operation and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Operation: String, Sendable {
        case read, write, remove, createDirectory = "create folder", list, lock
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

    public var description: String {
        let reason = detail ?? String(cString: strerror(errno))
        let remedy: String
        switch errno {
        case ENOENT: remedy = operation == .read ? "; check the path" : ""
        case EACCES, EPERM, EROFS: remedy = "; check the folder's permissions or choose another"
        case ENOSPC, EDQUOT: remedy = "; free some disk space and run again"
        default: remedy = ""
        }
        return "\(path): cannot \(operation.rawValue): \(reason)\(remedy)"
    }
}
