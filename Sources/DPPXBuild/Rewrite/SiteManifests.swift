import DPPXCore
import DPPXFiles
import DPPXRewrite
import Foundation

/// The images of the manifests under a site's root (found by `ManifestDiscovery`): what
/// `dppx serve` and `dppx rewrite` rewrite a site's pages with.
public enum SiteManifests {
    /// The images of every manifest under `root`, and a problem for each manifest that cannot
    /// be read (its images are left out).
    public static func load(under root: String) -> (images: SiteImages, manifests: [String], problems: [FileProblem]) {
        var manifests: [(folder: String, manifest: Manifest)] = []
        var paths: [String] = []
        var problems: [FileProblem] = []
        for path in ManifestDiscovery.find(under: root) {
            let folder = String((path as NSString).deletingLastPathComponent.dropFirst(root.count))
            let relative = folder.hasPrefix("/") ? String(folder.dropFirst()) : folder
            do {
                let bytes = try AtomicFile.read(path)
                manifests.append((relative, try Manifest.decode(bytes)))
                paths.append(path)
            } catch {
                problems.append(FileProblem(file: path, reason: "\(error); its images are not rewritten (build again to write it)"))
            }
        }
        return (SiteImages(manifests: manifests), paths, problems)
    }
}
