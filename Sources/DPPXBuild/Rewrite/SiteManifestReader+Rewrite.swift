import DPPXCore
import DPPXFiles

extension SiteManifestReader.Problem {
    /// The problem as a rewrite reports it: the manifest, why it was left out, and that its
    /// images are not rewritten.
    public var rewriteProblem: FileProblem {
        switch self {
        case .outsideRoot(let path, let root):
            FileProblem(file: path, reason: "is not inside the site's root \(root): its images are not the site's (name the site's root, or a manifest under it)")
        case .unreadable(let error):
            FileProblem(file: error.path, reason: "\(error); its images are not rewritten (build again to write it)")
        case .invalid(let path, let error):
            FileProblem(file: path, reason: "\(error); its images are not rewritten (build again to write it)")
        }
    }
}
