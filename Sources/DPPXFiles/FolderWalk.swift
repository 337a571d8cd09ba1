/// The one walk of a folder's tree, under the rules every walk of dppx keeps (finding a site's
/// manifests, listing the pages a pattern names):
///
/// - hidden files and folders (`.git`, `.dppx-cache`) are skipped, and nothing under them seen;
/// - no symbolic link is entered: a linked folder is reported as the link it is (links can
///   loop, or lead out of the tree), each entry looked at with `lstat`;
/// - folders at most `maxDepth` below the root are entered (the root's own entries are at 0);
/// - a folder that cannot be listed is passed over.
///
/// The root itself is opened as named, a link there followed (it is what the user named).
public enum FolderWalk {
    /// One file or folder found.
    public struct Entry: Sendable {
        /// The root as given, `/`, then `relative`.
        public let path: String
        /// The path below the root (`blog/post.html`).
        public let relative: String
        /// The entry's own name (`post.html`).
        public let name: String
        /// The entry itself (a link is a link: `lstat`).
        public let status: FileStatus
    }

    /// Calls `body` with every entry under `root` (in no set order), folders before what they hold;
    /// a folder for which `entering` is false is listed but not entered (`node_modules`).
    public static func visit(under root: String, maxDepth: Int = .max, entering: (Entry) -> Bool = { _ in true },
                             _ body: (Entry) -> Void) {
        func visit(_ relative: String, depth: Int) {
            let folder = relative.isEmpty ? root : root + "/" + relative
            guard let names = try? Folder.names(at: folder) else { return }
            for raw in names where raw.first != UInt8(ascii: ".") {
                let name = String(decoding: raw, as: UTF8.self)
                let path = folder + "/" + name
                guard let status = try? FileStatus(path: path, followingLinks: false) else { continue }
                let below = relative.isEmpty ? name : relative + "/" + name
                let entry = Entry(path: path, relative: below, name: name, status: status)
                body(entry)
                if status.isFolder, depth < maxDepth, entering(entry) { visit(below, depth: depth + 1) }
            }
        }
        visit("", depth: 0)
    }
}
