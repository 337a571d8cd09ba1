/// Why an image could not be read, resized or encoded: which file and what is wrong.
public struct ImagingError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of failure, for callers that act on it rather than print it.
    public enum Code: Sendable, Equatable {
        /// libvips failed; `reason` holds its words.
        case libvips
        /// No libvips loader recognises the file's content.
        case unknownFormat
        /// The file is over one of the decode limits (`DecodeLimits`).
        case overLimit
        /// Anything else dppx itself decided.
        case refused
    }

    /// The file involved, as the user named it, if any.
    public var file: String?
    /// What went wrong, in words a user can act on.
    public var reason: String
    public var code: Code

    public init(file: String?, reason: String, code: Code = .refused) {
        self.file = file
        self.reason = reason
        self.code = code
    }

    /// A failure libvips reported, with its error text.
    static func libvips(file: String?, _ prefix: String = "") -> ImagingError {
        ImagingError(file: file, reason: prefix + Vips.takeErrorText(), code: .libvips)
    }

    public var description: String {
        guard let file else { return reason }
        return "\(file): \(reason)"
    }
}
