import DPPXCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Finds the masters under a source folder: image extensions only, hidden files and folders
/// skipped, symbolically linked folders not followed (they can loop), names that are not
/// UTF-8 or hold a line break rejected, the output folder skipped when it sits inside the
/// source, sorted by path. The one walk of SRC: builds and the watcher (`SourceSnapshot`) use it.
public struct SourceScanner {
    public let root: String
    public let excluded: String?

    public init(root: String, excluding excluded: String? = nil) {
        self.root = root
        self.excluded = excluded.map { Self.canonical($0) }
    }

    /// Masters and the names that could not be taken (with the reason).
    public func scan() throws(BuildError) -> (sources: [SourceFile], rejected: [FileProblem]) {
        let found = try scanReportingSkipped()
        return (found.sources, found.rejected)
    }

    /// As `scan`, with the files that are not images dppx reads (`notes.txt`, `Thumbs.db`),
    /// relative and sorted, so a build can say it left them alone.
    public func scanReportingSkipped() throws(BuildError) -> (sources: [SourceFile], rejected: [FileProblem], skipped: [String]) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory) else {
            throw .sourceMissing(root)
        }
        if !isDirectory.boolValue {
            // A single file: build just that master.
            let file = (root as NSString).lastPathComponent
            var sources: [SourceFile] = []
            var rejected: [FileProblem] = []
            var skipped: [String] = []
            visit(file: file, relative: file, absolute: root, into: &sources, rejected: &rejected, skipped: &skipped)
            return (sources, rejected, skipped)
        }
        var sources: [SourceFile] = []
        var rejected: [FileProblem] = []
        var skipped: [String] = []
        walk(directory: root, relative: "", into: &sources, rejected: &rejected, skipped: &skipped)
        return (sources.sorted { $0.relativePath < $1.relativePath }, rejected, skipped.sorted())
    }

    private func walk(directory: String, relative: String, into sources: inout [SourceFile], rejected: inout [FileProblem],
                      skipped: inout [String]) {
        if let excluded, Self.canonical(directory) == excluded { return }
        guard let handle = opendir(directory) else {
            rejected.append(FileProblem(file: relative.isEmpty ? directory : relative,
                                         reason: "cannot be listed: \(String(cString: strerror(errno)))"))
            return
        }
        defer { closedir(handle) }
        var entries: [(name: String, raw: [UInt8])] = []
        while let entry = readdir(handle) {
            let raw = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard raw.first != UInt8(ascii: ".") else { continue }
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
            var info = stat()
            guard stat(absolute, &info) == 0 else {
                // A dangling symlink or a file removed while we looked.
                if ImageFormat(fileExtension: (entry.name as NSString).pathExtension) != nil {
                    rejected.append(FileProblem(file: relativePath, reason: "cannot be read: \(String(cString: strerror(errno)))"))
                }
                continue
            }
            if (info.st_mode & S_IFMT) == S_IFDIR {
                var linkInfo = stat()
                // Symlinked folders are not followed: they can loop.
                if lstat(absolute, &linkInfo) == 0, (linkInfo.st_mode & S_IFMT) == S_IFLNK { continue }
                walk(directory: absolute, relative: relativePath, into: &sources, rejected: &rejected, skipped: &skipped)
            } else if (info.st_mode & S_IFMT) == S_IFREG {
                visit(file: entry.name, relative: relativePath, absolute: absolute, info: info, into: &sources,
                      rejected: &rejected, skipped: &skipped)
            }
        }
    }

    private func visit(file: String, relative: String, absolute: String, info: stat? = nil,
                       into sources: inout [SourceFile], rejected: inout [FileProblem], skipped: inout [String]) {
        guard let name = MasterName(relativePath: relative) else {
            skipped.append(relative)
            return
        }
        var status = info ?? stat()
        if info == nil, stat(absolute, &status) != 0 {
            rejected.append(FileProblem(file: relative, reason: "cannot be read: \(String(cString: strerror(errno)))"))
            return
        }
        if relative.contains("\n") || relative.contains("\r") {
            rejected.append(FileProblem(file: relative.debugDescription,
                                         reason: "has a line break in its name, which cannot become a URL; rename it"))
            return
        }
        let modified = status.modificationNanoseconds
        sources.append(SourceFile(relativePath: relative, absolutePath: absolute, name: name,
                                  byteCount: Int(status.st_size), modified: modified, inode: UInt64(status.st_ino)))
    }

    /// Whether `path` is `folder` or lies below it (both already canonical).
    static func isWithin(_ path: String, folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    static func canonical(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return (path as NSString).standardizingPath }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
