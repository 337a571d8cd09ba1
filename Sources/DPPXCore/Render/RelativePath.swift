/// Path arithmetic on absolute `/`-separated paths, without touching the file system: the
/// relative path a stylesheet in one folder uses to reach images in another.
public enum RelativePath {
    /// Resolves `.` and `..` and duplicate slashes lexically: `/a/b/../c/` -> `/a/c`.
    public static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if !parts.isEmpty { parts.removeLast() }
                continue
            }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The path from folder `from` to `to`, both absolute: `/site/css` to `/site/img` is
    /// `../img`; the same folder is `""`.
    public static func from(_ from: String, to: String) -> String {
        let source = normalize(from).split(separator: "/")
        let target = normalize(to).split(separator: "/")
        var common = 0
        while common < source.count, common < target.count, source[common] == target[common] { common += 1 }
        let ups = Array(repeating: "..", count: source.count - common)
        let downs = target[common...].map(String.init)
        return (ups + downs).joined(separator: "/")
    }
}
