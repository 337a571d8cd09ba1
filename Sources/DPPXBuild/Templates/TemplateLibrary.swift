import DPPXCore
import DPPXFiles
import Foundation

/// Finds and reads the Mustache templates dppx renders CSS, HTML and server pages with.
///
/// dppx's own templates are compiled into the binary from the repository's `Templates/` (by the
/// EmbedTemplates build plugin), so a `dppx` copied anywhere needs no other file. Each template
/// is taken, file by file, from the first of:
/// 1. the user's folder (`--templates DIR`);
/// 2. `$DPPX_TEMPLATES`, when set: a folder replacing dppx's own templates (for packagers);
/// 3. the built-in copy of `Templates/`.
public struct TemplateLibrary: Sendable {
    /// The environment variable naming a folder that replaces dppx's own templates.
    public static let environmentVariable = "DPPX_TEMPLATES"
    /// Where the built-in templates come from, as error messages and `--templates` help name it.
    public static let builtInFolder = "Templates"

    /// The user's folder (`--templates`), searched first.
    public let overrideFolder: String?
    /// `$DPPX_TEMPLATES`, searched before the built-in templates.
    public let environmentFolder: String?

    /// Throws when `override` or `$DPPX_TEMPLATES` is given but is not a folder.
    public static func locate(override: String?,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(TemplateError) -> TemplateLibrary {
        if let override, !isDirectory(override) {
            throw TemplateError(file: override, problem: "is not a folder; --templates takes a folder with your copies of dppx's templates (e.g. --templates my-templates)")
        }
        var environmentFolder: String?
        if let configured = environment[environmentVariable], !configured.isEmpty {
            guard isDirectory(configured) else {
                throw TemplateError(file: configured, problem: "is not a folder, but \(environmentVariable) names it as dppx's template folder; fix or unset \(environmentVariable)")
            }
            environmentFolder = configured
        }
        return TemplateLibrary(overrideFolder: override, environmentFolder: environmentFolder)
    }

    public init(overrideFolder: String?, environmentFolder: String? = nil) {
        self.overrideFolder = overrideFolder
        self.environmentFolder = environmentFolder
    }

    /// The text of built-in template file `file` (`rule.mustache`, `server/inspector.mustache`).
    public static func builtIn(_ file: String) -> String? {
        BuiltInTemplates.files[file]
    }

    /// Every built-in template file, relative to `Templates/`.
    public static var builtInFiles: [String] {
        BuiltInTemplates.files.keys.sorted()
    }

    /// Reads template `name` (without extension; `server/inspector` for a subfolder).
    public func source(named name: String) throws(TemplateError) -> TemplateSource {
        let file = "\(name).\(TemplateKind.fileExtension)"
        for folder in [overrideFolder, environmentFolder].compactMap({ $0 }) {
            let path = folder + "/" + file
            guard FileStatus.at(path) != nil else { continue }
            let bytes: [UInt8]
            do { bytes = try AtomicFile.read(path) } catch {
                throw TemplateError(file: path, problem: "cannot be read: \(error.description)")
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw TemplateError(file: path, problem: "is not UTF-8 text; save it as UTF-8")
            }
            return TemplateSource(name: name, file: path, text: text)
        }
        guard let text = Self.builtIn(file) else {
            throw TemplateError(file: file, problem: "is not one of dppx's templates (\(Self.builtInFiles.joined(separator: ", ")))")
        }
        return TemplateSource(name: name, file: "\(Self.builtInFolder)/\(file) (built in)", text: text)
    }

    /// Reads and compiles every template of `kind`. A user's folder that holds none of them is
    /// an error: it most likely points at the wrong place.
    public func templates(_ kind: TemplateKind) throws(TemplateError) -> RenderTemplates {
        if let overrideFolder, !kind.fileNames.contains(where: { FileStatus.at(overrideFolder + "/" + $0) != nil }) {
            throw TemplateError(file: overrideFolder, problem: "holds none of the \(kind.rawValue) templates (\(kind.fileNames.joined(separator: ", "))); copy the ones to change from dppx's \(Self.builtInFolder) folder (in the repository, or share/dppx/\(Self.builtInFolder) where dppx is installed) and edit them")
        }
        var sources: [TemplateSource] = []
        for name in kind.templateNames { sources.append(try source(named: name)) }
        return try RenderTemplates(kind: kind, sources: sources)
    }

    private static func isDirectory(_ path: String) -> Bool {
        FileStatus.at(path)?.isFolder == true
    }
}
