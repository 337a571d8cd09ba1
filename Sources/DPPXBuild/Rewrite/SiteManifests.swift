import DPPXCore
import DPPXRewrite
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The `dppx-manifest.json` files under a site's root: where `dppx serve` and `dppx rewrite`
/// find the images a site's pages use (a manifest in `assets/img/` describes `/assets/img/...`).
public enum SiteManifests {
    /// How deep below the root manifests are looked for.
    public static let searchDepth = 8

    /// The manifests under `root` (the root's own first, then by path), hidden folders and
    /// folders reached through symbolic links skipped.
    public static func find(under root: String) -> [String] {
        var found: [String] = []
        func visit(_ folder: String, depth: Int) {
            guard depth <= searchDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder + "/" + name
                if name == Manifest.fileName {
                    found.append(path)
                    continue
                }
                var info = stat()
                guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { continue }
                visit(path, depth: depth + 1)
            }
        }
        visit(root, depth: 0)
        let own = root + "/" + Manifest.fileName
        return found.filter { $0 == own } + found.filter { $0 != own }
    }

    /// The images of every manifest under `root`, and a problem for each manifest that cannot
    /// be read (its images are left out).
    public static func load(under root: String) -> (images: SiteImages, manifests: [String], problems: [FileProblem]) {
        var manifests: [(folder: String, manifest: Manifest)] = []
        var paths: [String] = []
        var problems: [FileProblem] = []
        for path in find(under: root) {
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
