import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open folder. Its entries are looked at, read, written and removed by name relative to the
/// open descriptor (`openat`, `fstatat`, `renameat`, `unlinkat`), never through a link: a folder
/// renamed, or replaced by a link, while dppx works in it cannot send a write elsewhere. The
/// descriptor is closed when the value goes away.
public final class Folder {
    public let descriptor: FileDescriptor
    /// The folder's path as given, for messages.
    public let path: String

    private init(descriptor: FileDescriptor, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { try? descriptor.close() }

    /// Opens the folder at `path`; a link there is followed (it is what the user named).
    public convenience init(path: String, for operation: FileError.Operation) throws(FileError) {
        do {
            let descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.directory, .closeOnExec])
            self.init(descriptor: descriptor, path: path)
        } catch {
            throw FileError(path: path, operation: operation, Errno.of(error))
        }
    }

    /// The folder `name` inside this one, never through a link; created first when it is
    /// missing and `creating`. A link there fails with `.tooManySymbolicLinkLevels` (or
    /// `.notDirectory`), which callers can tell apart with `status(of:)`.
    public func subfolder(_ name: String, creating: Bool, for operation: FileError.Operation) throws(FileError) -> Folder {
        let childPath = path + "/" + name
        var child = openat(descriptor.rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if child < 0, errno == ENOENT, creating {
            if mkdirat(descriptor.rawValue, name, 0o755) != 0, errno != EEXIST {
                throw FileError(path: childPath, operation: .createDirectory, errno: errno)
            }
            child = openat(descriptor.rawValue, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard child >= 0 else { throw FileError(path: childPath, operation: operation, errno: errno) }
        return Folder(descriptor: FileDescriptor(rawValue: child), path: childPath)
    }

    /// The entry `name` itself (a link is reported as a link); nil when there is none.
    public func status(of name: String) -> FileStatus? {
        try? FileStatus(name: name, in: descriptor)
    }

    /// The whole regular file `name`, never through a link; nil when it is missing, a link,
    /// not a regular file, or unreadable.
    public func read(_ name: String) -> [UInt8]? {
        let opened = openat(descriptor.rawValue, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        let file = FileDescriptor(rawValue: opened)
        defer { try? file.close() }
        guard let info = try? FileStatus(descriptor: file), info.isRegularFile else { return nil }
        return try? file.readAll(count: info.size)
    }

    /// Whether `name` is a regular file (not a link) holding exactly `bytes`. Its size is
    /// looked at first, so a file that differs in size is never read.
    public func holds(_ bytes: [UInt8], named name: String) -> Bool {
        guard let info = status(of: name), info.isRegularFile, info.size == bytes.count else { return false }
        return read(name) == bytes
    }

    /// Writes `bytes` as `name` atomically (`reportedAs` names it in errors): a new temporary
    /// file, never an existing one or a link, is written, flushed and renamed over `name`. The
    /// rename replaces a link at `name` rather than writing where it points. Readers see the old
    /// content or the new, never a torn file.
    public func write(_ bytes: [UInt8], named name: String, reportedAs reported: String) throws(FileError) {
        let temporary = "\(AtomicFile.temporaryPrefix)\(name.prefix(80)).\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        let opened = openat(descriptor.rawValue, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw FileError(path: reported, operation: .write, errno: errno) }
        let file = FileDescriptor(rawValue: opened)
        var renamed = false
        defer { if !renamed { unlinkat(descriptor.rawValue, temporary, 0) } }
        do {
            _ = try file.writeAll(bytes)
        } catch {
            try? file.close()
            throw FileError(path: reported, operation: .write, Errno.of(error))
        }
        // Readable by the web server that will serve it, like any file `cp` would make.
        fchmod(opened, 0o644)
        if fsync(opened) != 0 {
            let code = errno
            try? file.close()
            throw FileError(path: reported, operation: .write, errno: code)
        }
        try? file.close()
        guard renameat(descriptor.rawValue, temporary, descriptor.rawValue, name) == 0 else {
            throw FileError(path: reported, operation: .write, errno: errno)
        }
        renamed = true
    }

    /// Writes `bytes` as `name` (see `write`) unless it already holds them (see `holds`), so
    /// `make` timestamps stay meaningful and nothing downstream rebuilds for nothing. Returns
    /// whether it wrote. The one "write if changed" of dppx: every generated file goes through it.
    @discardableResult
    public func writeIfChanged(_ bytes: [UInt8], named name: String, reportedAs reported: String) throws(FileError) -> Bool {
        if holds(bytes, named: name) { return false }
        try write(bytes, named: name, reportedAs: reported)
        return true
    }

    /// Removes the entry `name` (a link itself, never its target; not a folder).
    public func remove(_ name: String) throws(Errno) {
        guard unlinkat(descriptor.rawValue, name, 0) == 0 else { throw Errno(rawValue: errno) }
    }

    /// Removes the entry `name` and, when it is a folder, everything in it, each entry by name
    /// relative to its open folder: a link is removed itself, never followed, so nothing outside
    /// the tree is touched. What cannot be removed is left (and its folders with it).
    public func removeTree(_ name: String) {
        removeTree(Array(name.utf8))
    }

    private func removeTree(_ name: [UInt8]) {
        let cName = name.map { CChar(bitPattern: $0) } + [0]
        var info = stat()
        guard fstatat(descriptor.rawValue, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            let opened = openat(descriptor.rawValue, cName, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard opened >= 0 else { return }
            let child = Folder(descriptor: FileDescriptor(rawValue: opened), path: path + "/" + String(decoding: name, as: UTF8.self))
            for entry in (try? child.names()) ?? [] { child.removeTree(entry) }
            unlinkat(descriptor.rawValue, cName, AT_REMOVEDIR)
        } else {
            unlinkat(descriptor.rawValue, cName, 0)
        }
    }

    /// The names in this open folder, as `names(at:)` gives them.
    public func names() throws(Errno) -> [[UInt8]] {
        let copy = dup(descriptor.rawValue)
        guard copy >= 0 else { throw Errno(rawValue: errno) }
        guard let handle = fdopendir(copy) else {
            let code = errno
            close(copy)
            throw Errno(rawValue: code)
        }
        defer { closedir(handle) }
        return Self.names(in: handle)
    }

    /// The names in the folder at `path`, without `.` and `..`, as the bytes the file system
    /// holds (a name need not be UTF-8); unsorted.
    public static func names(at path: String) throws(Errno) -> [[UInt8]] {
        guard let handle = opendir(path) else { throw Errno(rawValue: errno) }
        defer { closedir(handle) }
        return names(in: handle)
    }

    /// Every name `readdir` gives from `handle`, but `.` and `..`.
    private static func names(in handle: DirectoryHandle) -> [[UInt8]] {
        var names: [[UInt8]] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard name != [UInt8(ascii: ".")], name != [UInt8(ascii: "."), UInt8(ascii: ".")] else { continue }
            names.append(name)
        }
        return names
    }
}

#if canImport(Darwin)
private typealias DirectoryHandle = UnsafeMutablePointer<DIR>
#else
private typealias DirectoryHandle = OpaquePointer
#endif

extension FileDescriptor {
    /// Exactly `count` bytes from the current offset; throws `.ioError` when the file ends early.
    public func readAll(count: Int) throws(Errno) -> [UInt8] {
        let bytes = try fill(count) { _, buffer in try read(into: buffer) }
        guard bytes.count == count else { throw .ioError }
        return bytes
    }

    /// Up to `count` bytes from `offset` on (`pread`, the offset left alone): fewer only when the
    /// file ends first.
    public func read(upTo count: Int, at offset: Int) throws(Errno) -> [UInt8] {
        try fill(count) { filled, buffer in try read(fromAbsoluteOffset: Int64(offset + filled), into: buffer) }
    }

    /// Up to `count` bytes from repeated reads (`read(filled, buffer)` returns how many it put in
    /// `buffer`, 0 at the end of the file): a read may return fewer bytes than asked.
    private func fill(_ count: Int, read: (Int, UnsafeMutableRawBufferPointer) throws -> Int) throws(Errno) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got: Int
            do {
                got = try bytes.withUnsafeMutableBytes { raw in
                    try read(filled, UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                }
            } catch {
                throw Errno.of(error)
            }
            guard got > 0 else { break }
            filled += got
        }
        return filled == count ? bytes : Array(bytes.prefix(filled))
    }

    /// Takes a `flock` on the open file without waiting: false when another descriptor holds a
    /// conflicting one. The kernel drops it when the descriptor closes or the process dies.
    public func tryLock(shared: Bool) throws(Errno) -> Bool {
        guard flock(rawValue, (shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0 else {
            let code = Errno(rawValue: errno)
            if code == .wouldBlock || code == .resourceTemporarilyUnavailable { return false }
            throw code
        }
        return true
    }

    /// Releases a `flock` taken with `tryLock`.
    public func unlock() {
        flock(rawValue, LOCK_UN)
    }

    /// Whether the descriptor is a terminal (`isatty`).
    public var isTerminal: Bool { isatty(rawValue) == 1 }
}
