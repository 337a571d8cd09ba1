import DPPXCore
import DPPXFiles
import Foundation

/// The images `dppx css` and `dppx html` describe, from either kind of folder:
/// a built folder (its `dppx-manifest.json` is read) or a folder of masters (only image
/// headers are read, through the same plan `dppx build` uses, so a Makefile can write the CSS
/// without waiting for the variants, and the names and sizes agree).
public struct RenderInput: Sendable {
    /// Where the images came from.
    public enum Origin: Hashable, Sendable {
        /// A built folder's manifest, at this path.
        case manifest(String)
        /// A folder (or one file) of masters.
        case masters(String)
    }

    public let manifest: Manifest
    public let origin: Origin
    /// The folder the manifest's paths are relative to: where the variants are (or will be,
    /// for masters built into a folder of the same layout).
    public let imageRoot: String
    /// Masters whose headers could not be read, and name collisions; the rest are described.
    public let failures: [FileProblem]
    /// Every file read, as the user named them: what a make depfile lists.
    public let inputs: [String]

    /// Reads `path`: a built folder, a `dppx-manifest.json`, a folder of masters or one master.
    /// `plan` and `maxPixels` apply to masters only (a manifest already says what was built).
    public static func load(_ path: String, plan: PlanSettings = PlanSettings(),
                            maxPixels: Int = BuildOptions.defaultMaxPixels) throws(RenderOutputError) -> RenderInput {
        guard let status = FileStatus.at(path) else {
            throw .wrongInput(path: path, problem: "no such file or folder; give a folder built by 'dppx build' (with \(Manifest.fileName)) or a folder of master images")
        }
        let manifestPath: String? = status.isFolder
            ? (FileStatus.at(join(path, Manifest.fileName)) != nil ? join(path, Manifest.fileName) : nil)
            : ((path as NSString).pathExtension.lowercased() == "json" ? path : nil)
        if let manifestPath {
            let bytes: [UInt8]
            do { bytes = try AtomicFile.read(manifestPath) } catch { throw .file(error) }
            let manifest: Manifest
            do { manifest = try Manifest.decode(bytes) } catch {
                throw .input(path: manifestPath, problem: error.description)
            }
            let root = status.isFolder ? path : parent(of: path)
            return RenderInput(manifest: manifest, origin: .manifest(manifestPath), imageRoot: root,
                               failures: [], inputs: [manifestPath])
        }
        let options = BuildOptions(sourceRoot: path, outputRoot: path, plan: plan, maxPixels: maxPixels, jobs: 1)
        let prediction: ManifestPredictor.Prediction
        do { prediction = try ManifestPredictor.predict(options: options) } catch {
            throw .input(path: path, problem: error.description)
        }
        let looksBuilt = prediction.collisions.count > 1 && prediction.collisions.count * 2 >= prediction.inputs.count
        if status.isFolder, looksBuilt || prediction.manifest.images.isEmpty, let nested = ManifestDiscovery.find(under: path).first {
            let folder = parent(of: nested)
            throw .wrongInput(path: path, problem: "has no \(Manifest.fileName), but \(nested) describes the images built into \(folder); give that folder, e.g. dppx css \(folder)")
        }
        if looksBuilt {
            let examples = prediction.collisions.prefix(2).map(\.file).joined(separator: ", ")
            throw .input(path: path, problem: "looks like a folder 'dppx build' wrote (\(examples)... share their names with other sizes) but has no \(Manifest.fileName); give the folder of masters, or rebuild it with 'dppx build SRC --out \(path)' to write the manifest")
        }
        let root = status.isFolder ? path : parent(of: path)
        return RenderInput(manifest: prediction.manifest, origin: .masters(path), imageRoot: root,
                           failures: prediction.failures, inputs: prediction.inputs.sorted())
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    private static func parent(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }
}
