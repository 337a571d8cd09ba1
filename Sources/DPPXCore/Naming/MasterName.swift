/// What a master's path says about it: folder, stem, own density (`@Nx`) and format.
///
/// `icons/logo@3x.png` is a 3x master whose variants are `icons/logo.png`, `icons/logo@1.5x.png`...
/// Paths are relative to the source root and always use `/`.
public struct MasterName: Hashable, Sendable {
    /// The folder part, `icons` for `icons/logo@3x.png`; empty at the root.
    public let directory: String
    /// The name without density suffix or extension: `logo`.
    public let stem: String
    /// The density the name declares, nil when it has no `@Nx` suffix.
    public let declaredDensity: Density?
    /// The extension as written (`png`, `JPG`): variants in the master's format keep it.
    public let fileExtension: String
    /// The format the extension names.
    public let format: ImageFormat

    /// Parses a relative path; nil when the extension is not an image format dppx reads.
    public init?(relativePath: String) {
        let slash = relativePath.lastIndex(of: "/")
        let directory = slash.map { String(relativePath[..<$0]) } ?? ""
        let file = slash.map { relativePath[relativePath.index(after: $0)...] } ?? Substring(relativePath)
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return nil }
        let ext = file[file.index(after: dot)...]
        guard let format = ImageFormat(fileExtension: ext), format.isMasterFormat else { return nil }
        var stem = file[..<dot]
        var density: Density?
        if let at = stem.lastIndex(of: "@"), at != stem.startIndex,
           let parsed = Density(parsing: stem[stem.index(after: at)...]),
           stem.last == "x" || stem.last == "X" {
            density = parsed
            stem = stem[..<at]
        }
        self.directory = directory
        self.stem = String(stem)
        self.declaredDensity = density
        self.fileExtension = String(ext)
        self.format = format
    }

    /// The path of the variant at `density` in `format` (the master's extension when it is the
    /// master's format): `icons/logo@1.5x.webp`. The 1x file has the plain name unless
    /// `spellingOneX` (`hero@1x.jpg`: an in-place build, where the plain name is the master's).
    public func variantPath(density: Density, format: ImageFormat, spellingOneX: Bool = false) -> String {
        let ext = format == self.format ? fileExtension : format.fileExtension
        let suffix = spellingOneX && density == Density(1) ? "@1x" : density.fileSuffix
        let file = "\(stem)\(suffix).\(ext)"
        return directory.isEmpty ? file : "\(directory)/\(file)"
    }

    /// The path of a fluid image's file `width` pixels wide in `format`: `photos/card-480w.jpg`.
    /// A `-480w` suffix cannot be read as an `@Nx` density, so the two kinds never collide.
    public func widthPath(width: Int, format: ImageFormat) -> String {
        let ext = format == self.format ? fileExtension : format.fileExtension
        let file = "\(stem)-\(width)w.\(ext)"
        return directory.isEmpty ? file : "\(directory)/\(file)"
    }

    /// `card` for `card-480w.jpg`: the stem of the image this name would be a width copy of
    /// (`widthPath`); nil for any other name.
    public var widthCopyStem: String? {
        guard stem.hasSuffix("w"), let dash = stem.lastIndex(of: "-"), dash != stem.startIndex else { return nil }
        let digits = stem[stem.index(after: dash)...].dropLast()
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return String(stem[..<dash])
    }

    /// The URL path of the 1x file in `format`: what pages reference and the server negotiates on.
    public func basePath(format: ImageFormat) -> String { variantPath(density: Density(1), format: format) }

    /// Two masters with the same identity would write the same files (`logo.png` and `logo@2x.png`).
    public var identity: String {
        let key = "\(stem).\(format.fileExtension)"
        return directory.isEmpty ? key : "\(directory)/\(key)"
    }
}
