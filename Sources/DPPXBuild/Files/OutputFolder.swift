import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation
import SystemPackage

/// The output folder as a build writes it: every write, reuse check and removal stays inside
/// it. Paths are relative, without `..`; no folder below the root is entered through a
/// symbolic link (each is opened with `O_NOFOLLOW`), and files are replaced by renames, which
/// replace a link rather than write where it points. The root itself may be a link: it is
/// what the user named.
struct OutputFolder: Sendable {
    let root: String
    /// An in-place build's (SRC is OUT): the only existing files it may write over or remove,
    /// the variants its last manifest lists (`InPlaceSite.owned`); every other file there is a
    /// master or the site's own. Nil: OUT is dppx's alone.
    var owned: Set<String>? = nil
    /// In place: where each file not in `owned` is recorded before it is written, so a build
    /// killed before its manifest is written leaves no file the next one takes for the site's.
    var journal: BuildJournal? = nil

    /// Whether `relative` names a place inside the folder: relative, `/`-separated, with no
    /// empty, `.` or `..` component (`PathContainment.escape`). Every path dppx writes is one.
    static func isInside(_ relative: String) -> Bool {
        PathContainment.escape(in: relative) == nil
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    /// Whether `relative` is one of dppx's manifests (whole or a shard's), which every build
    /// rewrites, in place too.
    static func isManifest(_ relative: String) -> Bool {
        relative == Manifest.fileName || PartialManifest.shard(inFileName: relative) != nil
    }

    /// Writes `bytes` as `relative` atomically, creating its folders, unless the file already
    /// holds them (`Folder.writeIfChanged`). Returns whether it wrote.
    /// In place, an existing file dppx did not write is never written over: the error names it.
    @discardableResult
    func writeIfChanged(_ bytes: [UInt8], to relative: String) throws(FileError) -> Bool {
        let (folder, name) = try openParent(of: relative, creating: true, for: .write)
        if let owned, !owned.contains(relative), !Self.isManifest(relative) {
            if folder.status(of: name) != nil {
                throw FileError(path: path(relative), operation: .write, .fileExists,
                                detail: "is not a file dppx wrote (\(Manifest.fileName) does not list it), and a build in place never writes over a master or the site's own files; rename or move it")
            }
            // Known as dppx's before it exists: a build killed from here on leaves it to the next.
            try journal?.record(relative)
        }
        return try folder.writeIfChanged(bytes, named: name, reportedAs: path(relative))
    }

    /// Whether `relative` is a regular file of `bytes` bytes, reached without a link.
    func holds(_ relative: String, bytes: Int) -> Bool {
        guard let (folder, name) = try? openParent(of: relative, creating: false, for: .read),
              let info = folder.status(of: name) else { return false }
        return info.isRegularFile && info.size == bytes
    }

    /// What `remove` did.
    enum Removal: Equatable {
        case removed
        /// Nothing there (already removed).
        case missing
        /// Left in place, as it should be: in a build in place, a master's own file (which an
        /// earlier manifest listed as the variant at its own name).
        case master
        /// Left in place, with the reason.
        case kept(String)
    }

    /// Removes `relative` only if it is the file dppx recorded writing there: a regular file
    /// (not a link) with the recorded size and SHA-256, reached without a link.
    func remove(_ relative: String, bytes: Int, hash: String) -> Removal {
        if let owned, !owned.contains(relative) { return .master }
        let folder: Folder, name: String
        do {
            (folder, name) = try openParent(of: relative, creating: false, for: .remove)
        } catch {
            return error.code == .noSuchFileOrDirectory ? .missing : .kept(error.description)
        }
        guard let info = folder.status(of: name) else { return .missing }
        guard info.isRegularFile else {
            return .kept("\(path(relative)): not removed: it is no longer the file dppx wrote (now a link or a folder)")
        }
        guard info.size == bytes, let content = folder.read(name), ContentHash.sha256(content) == hash else {
            return .kept("\(path(relative)): not removed: its content changed since dppx wrote it")
        }
        do { try folder.remove(name) } catch {
            return .kept(FileError(path: path(relative), operation: .remove, error).description)
        }
        return .removed
    }

    /// Deletes temporary files a killed run left behind, without entering linked folders.
    func removeStaleTemporaries() {
        func walk(_ directory: String) {
            guard let names = try? Folder.names(at: directory) else { return }
            for raw in names {
                let name = String(decoding: raw, as: UTF8.self)
                let full = directory + "/" + name
                guard let info = try? FileStatus(path: full, followingLinks: false) else { continue }
                if info.isFolder {
                    walk(full)
                } else if name.hasPrefix(AtomicFile.temporaryPrefix), info.isRegularFile {
                    try? AtomicFile.remove(full)
                }
            }
        }
        walk(root)
    }

    /// The open folder that holds `relative` and the file's name in it; folders are created
    /// when `creating`. A folder on the way that is a symbolic link is an error naming it.
    private func openParent(of relative: String, creating: Bool, for operation: FileError.Operation) throws(FileError) -> (Folder, String) {
        guard Self.isInside(relative) else {
            throw FileError(path: path(relative), operation: operation, .invalidArgument,
                            detail: "\(relative.debugDescription) is not a path inside the output folder")
        }
        var components = relative.split(separator: "/").map(String.init)
        let name = components.removeLast()
        var folder = try Folder(path: root, for: operation)
        for component in components {
            do {
                folder = try folder.subfolder(component, creating: creating, for: operation)
            } catch {
                if folder.status(of: component)?.kind == .symbolicLink {
                    throw FileError(path: error.path, operation: operation, .tooManySymbolicLinkLevels,
                                    detail: "is a symbolic link, and dppx never writes or removes files through a link inside the output folder; replace it with a real folder, or build into the folder it points to")
                }
                throw error
            }
        }
        return (folder, name)
    }
}
