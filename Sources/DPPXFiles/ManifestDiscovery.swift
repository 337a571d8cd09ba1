import DPPXCore

/// Finds the `dppx-manifest.json` files under a site's root: where `dppx serve`, `dppx rewrite`,
/// `dppx build`'s rewrite step and `dppx css`/`dppx html` (pointed at a site's root) find the
/// images a site's pages use (a manifest in `assets/img/` describes `/assets/img/...`). One walk,
/// one set of rules:
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
        func visit(_ folder: String, depth: Int) {
            guard let names = try? Folder.names(at: folder) else { return }
            for raw in names where raw.first != UInt8(ascii: ".") {
                let name = String(decoding: raw, as: UTF8.self)
                let path = folder + "/" + name
                guard let status = try? FileStatus(path: path, followingLinks: false) else { continue }
                if status.isFolder {
                    if depth < searchDepth { visit(path, depth: depth + 1) }
                } else if name == Manifest.fileName, status.isRegularFile {
                    found.append(path)
                }
            }
        }
        visit(base, depth: 0)
        let own = base + "/" + Manifest.fileName
        return found.filter { $0 == own } + found.filter { $0 != own }.sorted()
    }
}
