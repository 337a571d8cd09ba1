import DPPXCore
import DPPXImaging

/// Opens a master's header with messages that say what is wrong with the file.
enum MasterOpener {
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
