import DPPXCore

/// Finds the `dppx-manifest.json` files under a site's root: where `dppx serve`, `dppx rewrite`,
/// `dppx build`'s rewrite step and `dppx css`/`dppx html` (pointed at a site's root) find the
/// images a site's pages use (a manifest in `assets/img/` describes `/assets/img/...`). One walk
/// (`FolderWalk`), one set of rules:
///
/// - at most `searchDepth` folders below the root;
/// - hidden files and folders (`.git`, `.dppx-cache`) skipped;
/// - no symbolic link is followed: a linked folder is not entered (links can loop, or lead out
///   of the site) and a manifest that is a link is not used. Each entry is looked at with
///   `lstat`, never through a link.
public enum ManifestDiscovery {
    /// How many folders below the root manifests are looked for.
    public static let searchDepth = 8

    /// The manifests under `root`: the root's own first, then the others sorted by path.
    public static func find(under root: String) -> [String] {
        let base = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        var found: [String] = []
        FolderWalk.visit(under: base, maxDepth: searchDepth) { entry in
            if entry.name == Manifest.fileName, entry.status.isRegularFile { found.append(entry.path) }
        }
        let own = base + "/" + Manifest.fileName
        return found.filter { $0 == own } + found.filter { $0 != own }.sorted()
    }
}
