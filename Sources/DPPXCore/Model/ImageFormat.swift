/// An image encoding dppx reads or writes.
///
/// Raster masters are read in any of these; variants are written in the master's own format,
/// plus any extra formats asked for (`--formats webp,avif,jxl`). JPEG XL is written only, never
/// read as a master.
public enum ImageFormat: String, CaseIterable, Codable, Sendable, Comparable {
    case jpeg, png, webp, avif, gif, tiff, heic, svg, jxl

    /// The file extension dppx writes for this format.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: rawValue
        }
    }

    /// The `Content-Type` / `type()` of this format.
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        case .avif: "image/avif"
        case .gif: "image/gif"
        case .tiff: "image/tiff"
        case .heic: "image/heic"
        case .svg: "image/svg+xml"
        case .jxl: "image/jxl"
        }
    }

    /// Vector formats are resolution-independent: output once, never resized.
    public var isVector: Bool { self == .svg }

    /// Formats a browser can show, and so may be offered as extra encodings.
    public static let extraEncodings: [ImageFormat] = [.avif, .webp, .jxl, .jpeg, .png]

    /// Whether a master may be in this format (JPEG XL is an output only).
    public var isMasterFormat: Bool { self != .jxl }

    /// Formats browsers display, which variants may be written in.
    public var isWebFormat: Bool { [.jpeg, .png, .webp, .avif, .gif, .svg].contains(self) }

    /// The format a master's own variants are written in: its own when browsers show it;
    /// TIFF and HEIC masters become PNG when they have alpha, JPEG otherwise.
    public static func primaryOutput(forMaster format: ImageFormat, hasAlpha: Bool) -> ImageFormat {
        format.isWebFormat ? format : (hasAlpha ? .png : .jpeg)
    }

    /// Recognises a file extension, case-insensitively (`JPG`, `jpeg`, `tiff`...).
    public init?(fileExtension ext: some StringProtocol) {
        switch ext.lowercased() {
        case "jpg", "jpeg", "jpe": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        case "avif": self = .avif
        case "gif": self = .gif
        case "tif", "tiff": self = .tiff
        case "heic", "heif": self = .heic
        case "svg": self = .svg
        case "jxl": self = .jxl
        default: return nil
        }
    }

    /// Parses `webp,avif` (names or extensions); throws naming the unknown entry.
    public static func parseList(_ text: String) throws(FormatListError) -> [ImageFormat] {
        var result: [ImageFormat] = []
        for part in text.split(separator: ",") {
            let name = part.filter { $0 != " " }
            guard let format = ImageFormat(fileExtension: name), Self.extraEncodings.contains(format) else {
                throw FormatListError(entry: String(name))
            }
            if !result.contains(format) { result.append(format) }
        }
        guard !result.isEmpty else { throw FormatListError(entry: text) }
        return result
    }

    /// Order of preference when several encodings of one variant exist and their sizes are not
    /// known (a manifest predicted from masters): usually smallest first.
    public static func < (lhs: ImageFormat, rhs: ImageFormat) -> Bool {
        lhs.preference < rhs.preference
    }

    private var preference: Int {
        switch self {
        case .avif: 0
        case .webp: 1
        case .jxl: 2
        case .jpeg: 3
        case .png: 4
        case .gif: 5
        case .tiff: 6
        case .heic: 7
        case .svg: 8
        }
    }
}

/// An unknown or unsupported entry in `--formats`.
public struct FormatListError: Error, CustomStringConvertible, Equatable {
    public let entry: String
    public init(entry: String) { self.entry = entry }
    public var description: String {
        "expected extra formats among avif, webp, jxl, jpeg, png separated by commas (e.g. webp,avif), but got '\(entry)'"
    }
}
