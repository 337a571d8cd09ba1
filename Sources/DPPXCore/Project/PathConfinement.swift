/// Where the paths a project file names may lead: inside the project folder (the one holding
/// `dppx.toml`). A project file is repository content, and a commit can carry anything: without
/// this, `[build] out = "/etc"` or `[css] file = "~/.bashrc"` would be written by whoever builds.
///
/// Paths given on the command line are the user's own and never checked; a path from the file
/// outside the project is refused, naming the key, unless `--allow-outside-project` was given.
/// Whether a path lies inside is the file system's to say (links resolved), so the caller that
/// reads the file supplies `contains`; the core only asks.
public struct PathConfinement: Sendable {
    /// The project folder, as messages name it.
    public let folder: String
    /// Whether `path` (resolved against the project file's folder) lies inside the project.
    public let contains: @Sendable (String) -> Bool

    /// The flag that lifts the rule, as messages name it.
    public static let allowFlag = "--allow-outside-project"

    public init(folder: String, contains: @escaping @Sendable (String) -> Bool) {
        self.folder = folder
        self.contains = contains
    }

    /// The folder a page pattern starts in: its text up to the last `/` before the first glob
    /// character (`site/**/*.html` -> `site/`), or `.` for a pattern that starts with one.
    public static func literalFolder(of pattern: String) -> String {
        let head = pattern.prefix { !"*?[{".contains($0) }
        if head.count == pattern.count { return pattern }
        guard let slash = head.lastIndex(of: "/") else { return "." }
        return String(head[...slash])
    }
}
