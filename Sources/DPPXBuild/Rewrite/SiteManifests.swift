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
        load(ManifestDiscovery.find(under: root), root: root)
    }

    /// The images of the manifests at `paths` (each inside `root`; the first listed wins where
    /// two describe one path), and a problem for each that cannot be read or is outside `root`.
    public static func load(_ candidates: [String], root: String) -> (images: SiteImages, manifests: [String], problems: [FileProblem]) {
        var manifests: [(folder: String, manifest: Manifest)] = []
        var paths: [String] = []
        var problems: [FileProblem] = []
        for path in candidates {
            guard let relative = PathContainment.relativePath(of: (path as NSString).deletingLastPathComponent, inside: root) else {
                problems.append(FileProblem(file: path, reason: "is not inside the site's root \(root): its images are not the site's (name the site's root, or a manifest under it)"))
                continue
            }
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
