import DPPXCore
import Foundation

/// Reads a site's manifests into one `SiteManifests`: the ones `ManifestDiscovery` finds under
/// the site's root, or the ones named. What `dppx serve` (`ManifestStore`), `dppx rewrite`,
/// `dppx measure` and the development loop all read a site's images with.
///
/// A manifest that cannot be used is left out, with a `Problem` saying why; the others are read.
public enum SiteManifestReader {
    /// A manifest left out, and why. Each reader words it for its own users.
    public enum Problem: Error, Sendable, Equatable {
        /// Its folder is not inside the site's root (links resolved on both sides).
        case outsideRoot(path: String, root: String)
        /// The file cannot be read.
        case unreadable(FileError)
        /// The file is not a manifest any build writes.
        case invalid(path: String, ManifestError)

        /// The manifest's path.
        public var path: String {
            switch self {
            case .outsideRoot(let path, _), .invalid(let path, _): path
            case .unreadable(let error): error.path
            }
        }
    }

    /// What one reading gave: the manifests read, and one problem for each left out.
    public struct Reading: Sendable {
        public let site: SiteManifests
        public let problems: [Problem]
    }

    /// A manifest its reader holds as written: the build that just wrote it hands it on to the
    /// stylesheet and the page rewrite, which take it as given where the walk finds its file
    /// rather than reading back and decoding what was just encoded.
    public struct Held: Sendable {
        /// The folder it was written into.
        public let folder: String
        public let manifest: Manifest

        public init(folder: String, manifest: Manifest) {
            self.folder = folder
            self.manifest = manifest
        }
    }

    /// Every manifest under `root` (`ManifestDiscovery`: the root's own first, then by path),
    /// `held`'s taken as given.
    public static func read(under root: String, held: Held? = nil) -> Reading {
        read(ManifestDiscovery.find(under: root), root: root, held: held)
    }

    /// The manifests at `paths`, in that order (the first listed wins where two describe one
    /// path); each must lie in a folder inside `root`. The one in `held`'s folder is `held`'s.
    public static func read(_ paths: [String], root: String, held: Held? = nil) -> Reading {
        var entries: [SiteManifests.Entry] = []
        var problems: [Problem] = []
        let heldFolder = held.flatMap { PathContainment.relativePath(of: $0.folder, inside: root) }
        for path in paths {
            guard let folder = PathContainment.relativePath(of: (path as NSString).deletingLastPathComponent, inside: root) else {
                problems.append(.outsideRoot(path: path, root: root))
                continue
            }
            if let held, folder == heldFolder, (path as NSString).lastPathComponent == Manifest.fileName {
                entries.append(SiteManifests.Entry(path: path, folder: folder, manifest: held.manifest))
                continue
            }
            let bytes: [UInt8]
            do { bytes = try AtomicFile.read(path) } catch {
                problems.append(.unreadable(error))
                continue
            }
            do { entries.append(SiteManifests.Entry(path: path, folder: folder, manifest: try Manifest.decode(bytes))) } catch {
                problems.append(.invalid(path: path, error))
            }
        }
        return Reading(site: SiteManifests(entries), problems: problems)
    }
}
