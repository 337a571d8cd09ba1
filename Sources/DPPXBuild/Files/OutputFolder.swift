import DPPXImaging
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The output folder as a build writes it: every write, reuse check and removal stays inside
/// it. Paths are relative, without `..`; no folder below the root is entered through a
/// symbolic link (each is opened with `O_NOFOLLOW`), and files are replaced by renames, which
/// replace a link rather than write where it points. The root itself may be a link: it is
/// what the user named.
struct OutputFolder: Sendable {
    let root: String

    /// Whether `relative` names a place inside the folder: relative, `/`-separated, with no
    /// empty, `.` or `..` component. Every path dppx writes is one.
    static func isInside(_ relative: String) -> Bool {
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.utf8.contains(0) else { return false }
        return relative.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

    func path(_ relative: String) -> String { root + "/" + relative }

    /// Writes `bytes` as `relative` atomically, creating its folders, unless the file already
    /// holds them. Returns whether it wrote.
    @discardableResult
    func writeIfChanged(_ bytes: [UInt8], to relative: String) throws(FileError) -> Bool {
        let (folder, name) = try openParent(of: relative, creating: true, for: .write)
        defer { close(folder) }
        // Read what is there only when its size says it could be the same.
        var info = stat()
        if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == bytes.count,
           let existing = AtomicFile.read(named: name, in: folder), existing == bytes {
            return false
        }
        try AtomicFile.write(bytes, named: name, in: folder, path: path(relative))
        return true
    }

    /// Whether `relative` is a regular file of `bytes` bytes, reached without a link.
    func holds(_ relative: String, bytes: Int) -> Bool {
        guard let (folder, name) = try? openParent(of: relative, creating: false, for: .read) else { return false }
        defer { close(folder) }
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFREG
            && Int(info.st_size) == bytes
    }

    /// What `remove` did.
    enum Removal: Equatable {
        case removed
        /// Nothing there (already removed).
        case missing
        /// Left in place, with the reason.
        case kept(String)
    }

    /// Removes `relative` only if it is the file dppx recorded writing there: a regular file
    /// (not a link) with the recorded size and SHA-256, reached without a link.
    func remove(_ relative: String, bytes: Int, hash: String) -> Removal {
        let folder: Int32, name: String
        do {
            (folder, name) = try openParent(of: relative, creating: false, for: .remove)
        } catch {
            return error.errno == ENOENT ? .missing : .kept(error.description)
        }
        defer { close(folder) }
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            return .kept("\(path(relative)): not removed: it is no longer the file dppx wrote (now a link or a folder)")
        }
        guard Int(info.st_size) == bytes, let content = AtomicFile.read(named: name, in: folder),
              ContentHash.sha256(content) == hash else {
            return .kept("\(path(relative)): not removed: its content changed since dppx wrote it")
        }
        guard unlinkat(folder, name, 0) == 0 else {
            return .kept(FileError(path: path(relative), operation: .remove, errno: errno).description)
        }
        return .removed
    }

    /// Deletes temporary files a killed run left behind, without entering linked folders.
    func removeStaleTemporaries() {
        func walk(_ directory: String) {
            guard let handle = opendir(directory) else { return }
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard name != ".", name != ".." else { continue }
                let full = directory + "/" + name
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    walk(full)
                } else if name.hasPrefix(AtomicFile.temporaryPrefix), (info.st_mode & S_IFMT) == S_IFREG {
                    unlink(full)
                }
            }
        }
        walk(root)
    }

    /// The open folder that holds `relative` and the file's name in it; folders are created
    /// when `creating`. A folder on the way that is a symbolic link is an error naming it.
    private func openParent(of relative: String, creating: Bool, for operation: FileError.Operation) throws(FileError) -> (Int32, String) {
        guard Self.isInside(relative) else {
            throw FileError(path: path(relative), operation: operation, errno: EINVAL,
                            detail: "\(relative.debugDescription) is not a path inside the output folder")
        }
        var components = relative.split(separator: "/").map(String.init)
        let name = components.removeLast()
        var folder = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw FileError(path: root, operation: operation, errno: errno) }
        var walked = root
        for component in components {
            walked += "/" + component
            var next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, creating {
                if mkdirat(folder, component, 0o755) != 0, errno != EEXIST {
                    let code = errno
                    close(folder)
                    throw FileError(path: walked, operation: .createDirectory, errno: code)
                }
                next = openat(folder, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            close(folder)
            guard next >= 0 else {
                var info = stat()
                if lstat(walked, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK {
                    throw FileError(path: walked, operation: operation, errno: ELOOP,
                                    detail: "is a symbolic link, and dppx never writes or removes files through a link inside the output folder; replace it with a real folder, or build into the folder it points to")
                }
                throw FileError(path: walked, operation: operation, errno: code)
            }
            folder = next
        }
        return (folder, name)
    }
}
