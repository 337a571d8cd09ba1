/// Why an image could not be read, resized or encoded: which file and what libvips said.
public struct ImagingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file involved, as the user named it, if any.
    public var file: String?
    /// What went wrong, in words a user can act on.
    public var reason: String

    public init(file: String?, reason: String) {
        self.file = file
        self.reason = reason
    }

    public var description: String {
        guard let file else { return reason }
        return "\(file): \(reason)"
    }
}
