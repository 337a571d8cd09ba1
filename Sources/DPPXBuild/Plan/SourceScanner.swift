import DPPXCore
import DPPXFiles
import Foundation
import SystemPackage

/// Finds the masters under a source folder: image extensions only, hidden files and folders
/// skipped, symbolically linked folders not followed (they can loop), names that are not
/// UTF-8 or hold a line break rejected, the output folder skipped when it sits inside the
/// source, sorted by path. The one walk of SRC: builds and the watcher (`SourceSnapshot`) use it.
///
/// A file that is a symbolic link to a file outside SRC is refused (`refusedLinks`, a warning
/// naming the link) unless `allowingLinksOut`: SRC is repository content, and such a link would
/// publish whatever it points at (`--allow-outside-project` allows it).
public struct SourceScanner {
    public let root: String
    public let excluded: String?
    public let allowingLinksOut: Bool
    /// `root`, canonical: what links must lead inside.
    private let canonicalRoot: String

    /// `excluded`: the output folder, skipped when it lies inside `root`; when it is `root`
    /// itself (a build in place) nothing is skipped.
    public init(root: String, excluding excluded: String? = nil, allowingLinksOut: Bool = false) {
        self.root = root
        let excluded = excluded.map { PathContainment.canonical($0) }
        canonicalRoot = PathContainment.canonical(root)
        self.excluded = excluded == canonicalRoot ? nil : excluded
        self.allowingLinksOut = allowingLinksOut
    }

    /// Masters and the names that could not be taken (with the reason).
    public func scan() throws(BuildError) -> (sources: [SourceFile], rejected: [FileProblem]) {
        let found = try scanReportingSkipped()
        return (found.sources, found.rejected)
    }

    /// As `scan`, with the files that are not images dppx reads (`notes.txt`, `Thumbs.db`),
    /// relative and sorted, so a build can say it left them alone, and the links to files
    /// outside SRC it refused.
    public func scanReportingSkipped() throws(BuildError)
        -> (sources: [SourceFile], rejected: [FileProblem], skipped: [String], refusedLinks: [FileProblem]) {
        guard let status = FileStatus.at(root) else { throw .sourceMissing(root) }
        if !status.isFolder {
            // A single file: build just that master.
            let file = (root as NSString).lastPathComponent
            var sources: [SourceFile] = []
            var rejected: [FileProblem] = []
            var skipped: [String] = []
            visit(file: file, relative: file, absolute: root, into: &sources, rejected: &rejected, skipped: &skipped)
            return (sources, rejected, skipped, [])
        }
        var sources: [SourceFile] = []
        var rejected: [FileProblem] = []
        var skipped: [String] = []
        var refused: [FileProblem] = []
        walk(directory: root, relative: "", into: &sources, rejected: &rejected, skipped: &skipped, refused: &refused)
        return (sources.sorted { $0.relativePath < $1.relativePath }, rejected, skipped.sorted(), refused)
    }

    private func walk(directory: String, relative: String, into sources: inout [SourceFile], rejected: inout [FileProblem],
                      skipped: inout [String], refused: inout [FileProblem]) {
        if let excluded, PathContainment.canonical(directory) == excluded { return }
        let names: [[UInt8]]
        do { names = try Folder.names(at: directory) } catch {
            rejected.append(FileProblem(file: relative.isEmpty ? directory : relative,
                                         reason: "cannot be listed: \(error)"))
            return
        }
        var entries: [(name: String, raw: [UInt8])] = []
        for raw in names where raw.first != UInt8(ascii: ".") {
            entries.append((String(decoding: raw, as: UTF8.self), raw))
        }
        for entry in entries.sorted(by: { $0.raw.lexicographicallyPrecedes($1.raw) }) {
            let absolute = directory.hasSuffix("/") ? directory + entry.name : directory + "/" + entry.name
            let relativePath = relative.isEmpty ? entry.name : relative + "/" + entry.name
            guard String(validating: entry.raw, as: UTF8.self) != nil else {
                rejected.append(FileProblem(file: relativePath,
                                             reason: "has a name that is not valid UTF-8 and cannot become a URL; rename it"))
                continue
            }
            let info: FileStatus
            do { info = try FileStatus(path: absolute) } catch {
                // A dangling symlink or a file removed while we looked.
                if ImageFormat(fileExtension: (entry.name as NSString).pathExtension) != nil {
                    rejected.append(FileProblem(file: relativePath, reason: "cannot be read: \(error)"))
                }
                continue
            }
            if info.isFolder {
                // Symlinked folders are not followed: they can loop.
                if (try? FileStatus(path: absolute, followingLinks: false))?.kind == .symbolicLink { continue }
                walk(directory: absolute, relative: relativePath, into: &sources, rejected: &rejected, skipped: &skipped, refused: &refused)
            } else if info.isRegularFile {
                if !allowingLinksOut, (try? FileStatus(path: absolute, followingLinks: false))?.kind == .symbolicLink,
                   PathContainment.relativePath(ofCanonical: PathContainment.canonical(absolute), inside: canonicalRoot) == nil {
                    refused.append(FileProblem(file: relativePath, reason: "a link to \(PathContainment.canonical(absolute)), outside the source folder: not built (pass --allow-outside-project to build it)"))
                    continue
                }
                visit(file: entry.name, relative: relativePath, absolute: absolute, info: info, into: &sources,
                      rejected: &rejected, skipped: &skipped)
            }
        }
    }

    private func visit(file: String, relative: String, absolute: String, info: FileStatus? = nil,
                       into sources: inout [SourceFile], rejected: inout [FileProblem], skipped: inout [String]) {
        guard let name = MasterName(relativePath: relative) else {
            skipped.append(relative)
            return
        }
        let status: FileStatus
        if let info {
            status = info
        } else {
            do { status = try FileStatus(path: absolute) } catch {
                rejected.append(FileProblem(file: relative, reason: "cannot be read: \(error)"))
                return
            }
        }
        if relative.contains("\n") || relative.contains("\r") {
            rejected.append(FileProblem(file: relative.debugDescription,
                                         reason: "has a line break in its name, which cannot become a URL; rename it"))
            return
        }
        sources.append(SourceFile(relativePath: relative, absolutePath: absolute, name: name,
                                  byteCount: status.size, modified: status.modified, inode: status.inode))
    }
}
