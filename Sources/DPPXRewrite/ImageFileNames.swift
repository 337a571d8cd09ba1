import DPPXCore

/// The names dppx gives one image's files, whatever the build's settings: beside the plain file
/// (`img/hero.jpg`), the same stem with an `@Nx` density or a `-NNNw` width, in any image format
/// (`img/hero@1.5x.avif`, `img/hero-480w.webp`).
///
/// A `srcset`, `<source>` or `image-set()` whose every candidate is named so was written by an
/// earlier rewrite, even when a rebuild has since removed some of its files (another width
/// ladder, fewer densities, a format dropped): recognising it by the manifest's current files
/// would take it for the author's and leave it pointing at deleted files.
struct ImageFileNames: Sendable {
    /// The image's folder relative to the root, `""` at the root.
    let folder: String
    /// The plain file's name without its extension (`hero`).
    let stem: String

    /// The names of the image whose plain file is at `plainPath` (relative to the root).
    init(plainPath: String) {
        let slash = plainPath.lastIndex(of: "/")
        folder = slash.map { String(plainPath[..<$0]) } ?? ""
        let file = slash.map { plainPath[plainPath.index(after: $0)...] } ?? Substring(plainPath)
        stem = String(file.lastIndex(of: ".").map { file[..<$0] } ?? file)
    }

    /// Whether `path` (relative to the root) is named as one of the image's files.
    func names(_ path: String) -> Bool {
        let slash = path.lastIndex(of: "/")
        guard (slash.map { String(path[..<$0]) } ?? "") == folder else { return false }
        let file = slash.map { path[path.index(after: $0)...] } ?? Substring(path)
        guard file.hasPrefix(stem), let dot = file.lastIndex(of: "."),
              ImageFormat(fileExtension: file[file.index(after: dot)...]) != nil,
              file.index(file.startIndex, offsetBy: stem.count) <= dot else { return false }
        let suffix = file[file.index(file.startIndex, offsetBy: stem.count)..<dot]
        if suffix.isEmpty { return true }
        if suffix.hasPrefix("@"), suffix.hasSuffix("x") {
            return Density(parsing: suffix.dropFirst()) != nil
        }
        if suffix.hasPrefix("-"), suffix.hasSuffix("w") {
            let digits = suffix.dropFirst().dropLast()
            return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
        }
        return false
    }

    /// Whether `descriptor` is one dppx writes: a density (`2x`, `1.4967x`) or a width (`480w`).
    static func isDescriptor(_ descriptor: Substring) -> Bool {
        guard let unit = descriptor.last, unit == "x" || unit == "w" else { return false }
        let number = descriptor.dropLast()
        guard !number.isEmpty, number.first != "." else { return false }
        return number.allSatisfy { $0.isASCII && ($0.isNumber || (unit == "x" && $0 == ".")) } && number.filter { $0 == "." }.count <= 1
    }
}
