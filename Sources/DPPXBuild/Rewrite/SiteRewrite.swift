import DPPXCore
import DPPXFiles
import DPPXRewrite
import Foundation

/// `dppx rewrite`'s work on files: each page or stylesheet read, rewritten with the images of
/// the manifests under the site's root, and written atomically in place (a symbolic link through
/// to the file it points to inside the root) or under another folder, or only compared (`--check`).
public struct SiteRewrite: Sendable {
    /// The site's root: manifests are found under it, `/` URLs start there.
    public let root: String
    /// The pages and stylesheets, as paths.
    public let pages: [String]
    /// Where rewritten pages go, at their path under the root; nil rewrites them in place.
    public let output: String?
    public let options: RewriteOptions

    /// What a run did.
    public struct Outcome: Sendable {
        /// Pages whose file was written (or, with `check`, would be).
        public var changed: [String] = []
        /// Pages already as they should be.
        public var unchanged: [String] = []
        /// What was left alone on the pages written (with `check`: the stale ones), with what
        /// to do.
        public var findings: [RewriteFinding] = []
        /// What was left alone on pages already as they should be: told when they were
        /// written, so a rebuild that changed nothing does not say it all again.
        public var standingFindings: [RewriteFinding] = []
        /// Pages, and manifests, that could not be read or written.
        public var failures: [FileProblem] = []
        /// Every manifest read: what the pages depend on besides themselves.
        public var manifests: [String] = []
        /// Images given candidates.
        public var imagesRewritten = 0
        /// Of those, the fluid `<img>`s given the exact `sizes` of their measured boxes.
        public var imagesMadeExact = 0
        /// Set when `--picture` wrapped images in pages that were not measured: nothing checked
        /// that the wrappers leave each image's style and box as they were.
        public var picturesUnchecked = false
    }

    public init(root: String, pages: [String], output: String? = nil, options: RewriteOptions) {
        self.root = root
        self.pages = pages
        self.output = output
        self.options = options
    }

    /// One page or stylesheet rewritten in memory, not yet written.
    public struct PageChange: Sendable {
        /// The page as given.
        public let page: String
        /// Its path below the root.
        public let relative: String
        /// The file the result goes to (the page, the file a link points to, or its place under
        /// `output`).
        public let target: String
        /// The page as read.
        public let original: [UInt8]
        /// What the rewrite gave; replaced by the original when a check undoes it.
        public var result: RewriteResult
        public let isHTML: Bool
    }

    /// Rewrites every page; with `check`, writes nothing and lists in `changed` the pages
    /// whose file is not what a rewrite gives.
    /// `held`: the manifest a build just wrote, taken as given (`SiteManifestReader.Held`).
    public func run(check: Bool = false, held: SiteManifestReader.Held? = nil) -> Outcome {
        var (changes, outcome) = prepare(with: SiteManifestReader.read(under: root, held: held))
        write(changes, check: check, into: &outcome)
        outcome.picturesUnchecked = options.picture
        return outcome
    }

    /// Reads and rewrites every page in memory, with the site's manifests as read
    /// (`SiteManifestReader`); pages that cannot be read, are not under the root or are neither
    /// HTML nor CSS are in the outcome's failures.
    public func prepare(with reading: SiteManifestReader.Reading) -> (changes: [PageChange], outcome: Outcome) {
        var outcome = Outcome()
        outcome.manifests = reading.site.paths
        outcome.failures += reading.problems.map(\.rewriteProblem)
        let rewriter = PageRewriter(images: SiteImages(reading.site), options: options)
        var changes: [PageChange] = []
        for page in pages {
            // A link is rewritten through: the file it points to is written, never the link's
            // path (an atomic write there would replace the link with a file).
            var linked: String?
            if output == nil, (try? FileStatus(path: page, followingLinks: false))?.kind == .symbolicLink {
                let destination = PathContainment.resolved(page)
                guard let destination, PathContainment.isInside(destination, root: root) else {
                    outcome.failures.append(FileProblem(file: page, reason: "is a symbolic link to \(destination ?? "a file that does not exist"), outside the site's root \(root): rewriting it in place would replace the link with a file; rewrite the file it points to with its own site's root, or pass --out"))
                    continue
                }
                linked = destination
            }
            guard let relative = relativePath(of: page) else {
                outcome.failures.append(FileProblem(file: page, reason: "is not inside the site's root \(root); pass --root with the folder the site is served from"))
                continue
            }
            guard let kind = PageKind(path: page) else {
                outcome.failures.append(FileProblem(file: page, reason: "is neither an HTML page (.html, .htm) nor a stylesheet (.css); give only pages and stylesheets"))
                continue
            }
            let bytes: [UInt8]
            do { bytes = try AtomicFile.read(page) } catch {
                outcome.failures.append(FileProblem(file: page, reason: "cannot be read: \(error)"))
                continue
            }
            let result = kind == .html ? rewriter.rewriteHTML(bytes, at: relative) : rewriter.rewriteCSS(bytes, at: relative)
            changes.append(PageChange(page: page, relative: relative, target: linked ?? target(of: page, relative: relative),
                                      original: bytes, result: result, isHTML: kind == .html))
        }
        return (changes, outcome)
    }

    /// Writes `changes` (with `check`, only compares them) and records what happened.
    public func write(_ changes: [PageChange], check: Bool, into outcome: inout Outcome) {
        for change in changes {
            let result = change.result
            outcome.imagesRewritten += result.imagesRewritten
            outcome.imagesMadeExact += result.imagesMadeExact
            let changed: Bool
            if check {
                changed = !AtomicFile.holds(result.bytes, at: change.target)
            } else {
                do { changed = try AtomicFile.writeIfChanged(result.bytes, to: change.target) } catch {
                    changed = true
                    outcome.failures.append(FileProblem(file: change.target, reason: "cannot be written: \(error)"))
                }
            }
            if changed {
                outcome.changed.append(change.page)
                outcome.findings += result.findings
            } else {
                outcome.unchanged.append(change.page)
                // A page left unread is said on every run: no run wrote it to say so before.
                outcome.findings += result.findings.filter(\.isPageLeftUnread)
                outcome.standingFindings += result.findings.filter { !$0.isPageLeftUnread }
            }
            if check { outcome.failures += missingFiles(namedBy: change) }
        }
    }

    /// The site's files the page of `change` names, as it is on disk, that are not there: a
    /// deploy of the site would ship them as broken images (`dppx rewrite --check` fails on
    /// them).
    func missingFiles(namedBy change: PageChange) -> [FileProblem] {
        guard let bytes = try? AtomicFile.read(change.target) else { return [] }
        var missing: [FileProblem] = []
        var seen = Set<String>()
        for reference in PageReferences.references(in: bytes, at: change.relative, isHTML: change.isHTML, baseURL: options.baseURL)
        where seen.insert(reference.path).inserted && FileStatus.at(root + "/" + reference.path) == nil {
            missing.append(FileProblem(file: "\(change.page):\(reference.line)", reason: "names \(reference.path), which is not under the site's root \(root): a deploy would ship a broken image; build it (dppx build), or correct the URL"))
        }
        return missing
    }

    /// `page`'s path below the root, nil when it is not inside it.
    public func relativePath(of page: String) -> String? {
        guard let relative = PathContainment.relativePath(of: page, inside: root), !relative.isEmpty else { return nil }
        return relative
    }

    /// The file `page` is rewritten into: itself, or its place under `output`.
    public func target(of page: String) -> String {
        target(of: page, relative: relativePath(of: page) ?? (page as NSString).lastPathComponent)
    }

    private func target(of page: String, relative: String) -> String {
        output.map { ($0.hasSuffix("/") ? $0 : $0 + "/") + relative } ?? page
    }

    /// The files `patterns` name: a path as it is, or a pattern (`site/**/*.html`: `*` within a
    /// name, `**` any folders) matched under its leading folder (`FolderWalk`: hidden files skipped,
    /// linked folders not entered), sorted.
    public static func files(matching patterns: [String]) -> [String] {
        var files: [String] = []
        for pattern in patterns {
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: false)
            guard let wild = parts.firstIndex(where: { $0.contains("*") || $0.contains("?") }) else {
                files.append(pattern)
                continue
            }
            let folder = parts[..<wild].joined(separator: "/")
            let start = folder.isEmpty ? (pattern.hasPrefix("/") ? "/" : ".") : folder
            let glob = PathGlob("/" + parts[wild...].joined(separator: "/"))
            var matched: [String] = []
            // A link to a file is a page; a linked folder is not entered.
            FolderWalk.visit(under: start) { entry in
                guard !entry.status.isFolder, glob.matches(entry.relative),
                      let target = try? FileStatus(path: entry.path), !target.isFolder else { return }
                matched.append(start == "." ? entry.relative : (start.hasSuffix("/") ? start : start + "/") + entry.relative)
            }
            files += matched.sorted()
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }
    }
}

/// What a file is rewritten as, from its extension.
enum PageKind {
    case html, css

    init?(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm", "xhtml": self = .html
        case "css": self = .css
        default: return nil
        }
    }
}
