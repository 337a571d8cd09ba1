import DPPXCore
import Foundation

/// Finds and reads the Mustache templates dppx renders CSS, HTML and server pages with.
///
/// `Templates/` is a runtime folder (SwiftPM resources must sit inside a target), so it is
/// looked up rather than compiled in, in this order:
/// 1. `DPPX_TEMPLATES`, when set: the folder holding dppx's own templates (for packagers);
/// 2. a `Templates/` (or `share/dppx/Templates/`) folder holding the marker file, in the folder
///    of the running executable or any folder above it, with symlinks resolved and not — this
///    finds the repository's `Templates/` from `.build/debug/dppx`, `swift run` and tests;
/// 3. `Templates/` in the current folder.
///
/// A user's folder (`--templates DIR`) comes before all of them, file by file: a template it
/// holds replaces dppx's own, the others still come from the default folder.
public struct TemplateLibrary: Sendable {
    /// The environment variable naming dppx's own template folder.
    public static let environmentVariable = "DPPX_TEMPLATES"
    /// The folder name searched for.
    public static let folderName = "Templates"
    /// The file whose presence marks dppx's template folder (and not some other `Templates/`).
    public static let defaultMarker = "stylesheet.mustache"

    /// The user's folder (`--templates`), searched first.
    public let overrideFolder: String?
    /// dppx's own templates; nil when no candidate held the marker.
    public let defaultFolder: String?
    /// Every folder tried for the defaults, for the error message when one is missing.
    public let searched: [String]

    /// Finds the folders. Throws only when `override` is given but is not a folder.
    public static func locate(override: String?, marker: String = defaultMarker,
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              executablePath: String? = currentExecutablePath(),
                              currentDirectory: String = FileManager.default.currentDirectoryPath) throws(TemplateError) -> TemplateLibrary {
        if let override, !isDirectory(override) {
            throw TemplateError(file: override, problem: "is not a folder; --templates takes a folder with your copies of dppx's templates (e.g. --templates my-templates)")
        }
        var searched: [String] = []
        if let configured = environment[environmentVariable], !configured.isEmpty {
            guard isDirectory(configured) else {
                throw TemplateError(file: configured, problem: "is not a folder, but \(environmentVariable) names it as dppx's template folder; fix or unset \(environmentVariable)")
            }
            return TemplateLibrary(overrideFolder: override, defaultFolder: configured, searched: [configured])
        }
        for candidate in candidateFolders(executablePath: executablePath, currentDirectory: currentDirectory) {
            searched.append(candidate)
            if FileManager.default.isReadableFile(atPath: candidate + "/" + marker) {
                return TemplateLibrary(overrideFolder: override, defaultFolder: candidate, searched: searched)
            }
        }
        return TemplateLibrary(overrideFolder: override, defaultFolder: nil, searched: searched)
    }

    public init(overrideFolder: String?, defaultFolder: String?, searched: [String] = []) {
        self.overrideFolder = overrideFolder
        self.defaultFolder = defaultFolder
        self.searched = searched
    }

    /// The path of template file `file` (`rule.mustache`, `server/index.mustache`): the user's
    /// copy when there is one, else dppx's own; nil when neither exists.
    public func path(of file: String) -> String? {
        for folder in [overrideFolder, defaultFolder].compactMap({ $0 }) {
            let path = folder + "/" + file
            if FileManager.default.isReadableFile(atPath: path) { return path }
        }
        return nil
    }

    /// Reads template `name` (without extension; `server/index` for a subfolder).
    public func source(named name: String) throws(TemplateError) -> TemplateSource {
        let file = "\(name).\(TemplateKind.fileExtension)"
        guard let path = path(of: file) else {
            if defaultFolder == nil {
                throw TemplateError(file: file, problem: "not found: dppx's Templates folder is not in \(searched.isEmpty ? "any searched folder" : searched.joined(separator: ", ")); pass --templates DIR or set \(Self.environmentVariable) to the folder holding \(Self.defaultMarker)")
            }
            throw TemplateError(file: [overrideFolder, defaultFolder].compactMap { $0 }.map { $0 + "/" + file }.joined(separator: " or "),
                                problem: "does not exist; restore it from dppx's Templates folder")
        }
        let bytes: [UInt8]
        do { bytes = try AtomicFile.read(path) } catch {
            throw TemplateError(file: path, problem: "cannot be read: \(error.description)")
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TemplateError(file: path, problem: "is not UTF-8 text; save it as UTF-8")
        }
        return TemplateSource(name: name, file: path, text: text)
    }

    /// Reads and compiles every template of `kind`. A user's folder that holds none of them is
    /// an error: it most likely points at the wrong place.
    public func templates(_ kind: TemplateKind) throws(TemplateError) -> RenderTemplates {
        if let overrideFolder, !kind.fileNames.contains(where: { FileManager.default.fileExists(atPath: overrideFolder + "/" + $0) }) {
            throw TemplateError(file: overrideFolder, problem: "holds none of the \(kind.rawValue) templates (\(kind.fileNames.joined(separator: ", "))); copy the ones to change from \(defaultFolder ?? "dppx's Templates folder") and edit them")
        }
        var sources: [TemplateSource] = []
        for name in kind.templateNames { sources.append(try source(named: name)) }
        return try RenderTemplates(kind: kind, sources: sources)
    }

    /// Ancestors of the executable (resolved and as invoked), then the current folder; each
    /// with `Templates` and `share/dppx/Templates`.
    static func candidateFolders(executablePath: String?, currentDirectory: String) -> [String] {
        var roots: [String] = []
        if let executablePath {
            let absolute = executablePath.hasPrefix("/") ? executablePath : currentDirectory + "/" + executablePath
            for path in [resolve(absolute), RelativePath.normalize(absolute)] {
                var folder = (path as NSString).deletingLastPathComponent
                while true {
                    if !roots.contains(folder) { roots.append(folder) }
                    let parent = (folder as NSString).deletingLastPathComponent
                    if parent == folder || parent.isEmpty { break }
                    folder = parent
                }
            }
        }
        var candidates: [String] = []
        for root in roots {
            let base = root == "/" ? "" : root
            candidates.append(base + "/" + folderName)
            candidates.append(base + "/share/dppx/" + folderName)
        }
        let local = RelativePath.normalize(currentDirectory) + "/" + folderName
        if !candidates.contains(local) { candidates.append(local) }
        return candidates
    }

    /// The running program's path: `/proc/self/exe` on Linux, else what Foundation knows.
    public static func currentExecutablePath() -> String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        return Bundle.main.executablePath ?? CommandLine.arguments.first
    }

    private static func resolve(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return RelativePath.normalize(path) }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
