import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one answer to "is this path inside that folder", in its two forms:
///
/// - **By name** (`escape(in:)`), for a path that is about to be joined to a folder (a
///   manifest's variant path, a request's path): relative, no `.` or `..` component, no NUL.
/// - **On disk** (`relativePath(of:inside:)`), for paths that exist or are about to: both sides
///   made canonical first (`canonical`): absolute, every symbolic link resolved, `.` and `..`
///   applied, no trailing slash, and each existing name spelled as the file system stores it,
///   so a case-insensitive volume (macOS) compares `Site/OUT` and `site/out` as one folder.
///   Then a path is inside when it is the folder or lies below it, component by component
///   (`/srv/site2` is not inside `/srv/site`).
///
/// The build (SRC against OUT, masters linked into OUT), the page rewriter (pages against the
/// site's root), the output folder (manifest paths) and the server (request paths, links out of
/// ROOT) all ask here.
public enum PathContainment {
    /// How a path written relative to a folder could leave it.
    public enum Escape: Hashable, Sendable {
        /// It starts with `/`.
        case absolute
        /// It holds a NUL byte (C would cut the name there).
        case nul
        /// A `.` or `..` component.
        case dotComponent
        /// An empty component (`a//b`, a trailing `/`, or the empty path).
        case emptyComponent
    }

    /// The first reason `relative` may not name a place inside the folder it is joined to; nil
    /// when it names one. Empty components are harmless when the file system reads the path
    /// (`a//b` is `a/b`) but not in a name dppx records, so they count unless allowed.
    public static func escape(in relative: some StringProtocol, allowingEmptyComponents: Bool = false) -> Escape? {
        let slash = UInt8(ascii: "/"), dot = UInt8(ascii: ".")
        if relative.utf8.first == slash { return .absolute }
        var length = 0
        var onlyDots = true
        for byte in relative.utf8 {
            if byte == 0 { return .nul }
            if byte == slash {
                if let escape = componentEscape(length: length, onlyDots: onlyDots, allowingEmpty: allowingEmptyComponents) { return escape }
                length = 0
                onlyDots = true
            } else {
                length += 1
                onlyDots = onlyDots && byte == dot
            }
        }
        return componentEscape(length: length, onlyDots: onlyDots, allowingEmpty: allowingEmptyComponents)
    }

    private static func componentEscape(length: Int, onlyDots: Bool, allowingEmpty: Bool) -> Escape? {
        if length == 0 { return allowingEmpty ? nil : .emptyComponent }
        return onlyDots && length <= 2 ? .dotComponent : nil
    }

    /// `path` with every link resolved (`realpath`); nil when it does not exist.
    public static func resolved(_ path: String) -> String? {
        guard let real = realpath(path, nil) else { return nil }
        defer { free(real) }
        return String(cString: real)
    }

    /// The canonical form of `path`, which need not exist yet: its longest existing ancestor
    /// resolved (`resolved`), the rest appended with `.` and `..` applied; absolute (relative
    /// to the working folder), without a trailing slash.
    public static func canonical(_ path: String) -> String {
        if let real = resolved(path) { return real }
        let absolute = path.hasPrefix("/") ? path : WorkingFolder.path + "/" + path
        var existing = absolute.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        var missing: [String] = []
        var base: [Substring] = []
        while let last = existing.popLast() {
            missing.insert(last, at: 0)
            if let real = resolved("/" + existing.joined(separator: "/")) {
                base = real.split(separator: "/")
                break
            }
        }
        for component in missing {
            switch component {
            case ".": continue
            case "..": _ = base.popLast()
            default: base.append(Substring(component))
            }
        }
        return "/" + base.joined(separator: "/")
    }

    /// `path` relative to `root` (empty for `root` itself), both already canonical; nil when
    /// `path` is neither `root` nor below it.
    public static func relativePath(ofCanonical path: String, inside root: String) -> Substring? {
        if path == root { return path[path.endIndex...] }
        let prefix = root == "/" ? "/" : root + "/"
        guard path.hasPrefix(prefix) else { return nil }
        return path.dropFirst(prefix.count)
    }

    /// `path` relative to `root` (empty for `root` itself), both made canonical here; nil when
    /// it lies outside.
    public static func relativePath(of path: String, inside root: String) -> String? {
        relativePath(ofCanonical: canonical(path), inside: canonical(root)).map(String.init)
    }

    /// Whether `path` is `root` or lies below it on disk (links resolved on both sides).
    public static func isInside(_ path: String, root: String) -> Bool {
        relativePath(of: path, inside: root) != nil
    }
}
