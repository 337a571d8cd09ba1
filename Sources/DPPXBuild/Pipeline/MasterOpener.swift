import DPPXCore
import DPPXFiles
import DPPXImaging

/// Opens a master's header with messages that say what is wrong with the file.
enum MasterOpener {
    /// The master's header only, its file read here (`ManifestPredictor`, before a build:
    /// nothing to hash).
    static func open(_ source: SourceFile, limits: DecodeLimits) throws(FileProblem) -> MasterImage {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(source.absolutePath) } catch { throw unreadable(source, error) }
        return try open(source, bytes: bytes, limits: limits)
    }

    /// A master whose file cannot be read.
    static func unreadable(_ source: SourceFile, _ error: FileError) -> FileProblem {
        FileProblem(file: source.relativePath, reason: "cannot be read: \(error.code); check its permissions")
    }

    /// `bytes`: the file as read once by the build.
    static func open(_ source: SourceFile, bytes: [UInt8], limits: DecodeLimits) throws(FileProblem) -> MasterImage {
        if bytes.isEmpty {
            throw FileProblem(file: source.relativePath, reason: "is empty (0 bytes); replace it with the image")
        }
        do {
            return try MasterImage(path: source.absolutePath, bytes: bytes, limits: limits)
        } catch where error.code == .unknownFormat {
            throw FileProblem(file: source.relativePath, reason: "is not an image libvips can read (its extension says \(source.name.format.rawValue)); replace or remove it")
        } catch {
            throw FileProblem(file: source.relativePath, reason: error.reason)
        }
    }
}
