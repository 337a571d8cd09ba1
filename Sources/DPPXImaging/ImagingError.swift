/// Why an image could not be read, resized or encoded: which file and what libvips said.
public struct ImagingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure, for callers that act on it (the message is for people).
    public enum Code: Hashable, Sendable {
        /// No libvips loader recognises the file's content: it is not an image at all.
        case unknownFormat
        /// Anything else: damaged data, an encoder failure...
        case other
    }

    /// What kind of failure.
    public var code: Code
    /// The file involved, as the user named it, if any.
    public var file: String?
    /// What went wrong, in words a user can act on.
    public var reason: String

    public init(file: String?, reason: String, code: Code = .other) {
        self.code = code
        self.file = file
        self.reason = reason
    }

    public var description: String {
        guard let file else { return reason }
        return "\(file): \(reason)"
    }
}
