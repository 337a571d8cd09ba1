import DPPXCore
import DPPXFiles
import Foundation

/// Finds and reads the project file: `--config FILE`, else the first `dppx.toml` in the working
/// folder or one of its parents (as git finds `.git`), so every command run anywhere in the
/// project reads the same settings.
public enum ProjectLocator {
    /// The project file, found from `folder` (the working folder) upwards, as a path relative
    /// to it (`dppx.toml`, `../dppx.toml`); nil when there is none.
    public static func find(from folder: String = WorkingFolder.path) -> String? {
        var current = RelativePath.normalize(folder)
        var ups = ""
        while true {
            if FileStatus.at((current == "/" ? "" : current) + "/" + ProjectFile.fileName) != nil {
                return ups + ProjectFile.fileName
            }
            guard current != "/" else { return nil }
            current = (current as NSString).deletingLastPathComponent
            ups += "../"
        }
    }

    /// Reads the project file at `path`; its relative folder paths are resolved against its
    /// folder, and each must lead inside it (links resolved) unless `allowingOutside`.
    public static func load(_ path: String, allowingOutside: Bool = false) throws(ProjectLoadError) -> ProjectSettings {
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path) } catch { throw .unreadable(error) }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw .invalid(path: path, ProjectFileError(line: 1, key: nil, problem: "is not UTF-8 text; save it as UTF-8"))
        }
        let folder = (path as NSString).deletingLastPathComponent
        let project = folder.isEmpty ? "." : folder
        let confinement = allowingOutside ? nil : PathConfinement(folder: PathContainment.canonical(project)) { PathContainment.isInside($0, root: project) }
        do { return try ProjectFile.settings(parsing: text, folder: project, confinement: confinement) } catch {
            throw .invalid(path: path, error)
        }
    }
}

/// Why the project file could not be used.
public enum ProjectLoadError: Error, CustomStringConvertible, Sendable {
    case unreadable(FileError)
    case invalid(path: String, ProjectFileError)

    /// `dppx.toml:12: build.quality must be between 1 and 100, e.g. quality = 80; got 101`.
    public var description: String {
        switch self {
        case .unreadable(let error): error.description
        case .invalid(let path, let error): "\(path):\(error.line): \(error.key.map { error.problem.hasPrefix($0) ? "" : $0 + " " } ?? "")\(error.problem)"
        }
    }
}
