import DPPXCore
import DPPXFiles
import DPPXRewrite
import Foundation

/// What `dppx init` finds in a site's folder: the folder the site publishes, its pages, the
/// stylesheets they load and the images pages and stylesheets name, and whether those images
/// are the site's own or a site generator's copies of files kept elsewhere in the folder.
///
/// Hidden folders and `node_modules` are not looked in. Paths are relative to `folder`, with
/// `/`; "" is `folder` itself.
public struct SiteSurvey: Sendable, Equatable {
    /// How the site's published folder was told from the rest.
    public enum RootEvidence: Sendable, Equatable {
        /// The shallowest folder holding an `index.html` (`public`, `_site`, `dist` first among
        /// folders as deep).
        case index
        /// No `index.html`: the folder holding every page.
        case commonFolder
    }

    /// The folder surveyed, as given.
    public let folder: String
    /// The folder the site publishes, relative to `folder`.
    public let siteRoot: String
    public let rootEvidence: RootEvidence
    /// The `*.html` pages under `siteRoot`, relative to it, sorted.
    public let pages: [String]
    /// The stylesheets the pages load (`<link rel="stylesheet">`, `@import`) that are there,
    /// relative to `siteRoot`, sorted.
    public let stylesheets: [String]
    /// The raster images the pages and stylesheets name that are there, relative to
    /// `siteRoot`, sorted.
    public let images: [String]
    /// Those of `images` named only by stylesheets (`url()`), never by an `<img>` or `style`.
    public let stylesheetOnlyImages: [String]
    /// Images named that are not there (a typo, a file the generator makes later), relative to
    /// `siteRoot`, sorted.
    public let missingImages: [String]
    /// The folders not looked in (`node_modules`), relative to `folder`, sorted: a build whose
    /// source holds one must leave it out.
    public let toolingFolders: [String]
    /// A folder outside `siteRoot` that holds every image of `imageFolder` at the same path
    /// below it with the same bytes: the folder a site generator copies the images from, so
    /// the masters dppx builds from. Nil when the images are the site's own.
    public let masterFolder: String?

    /// Folders of the site's tooling, not of its pages.
    static let skippedFolders: Set<String> = ["node_modules"]

    /// Folder names site generators publish to, in the order preferred among folders as deep.
    static let publishedFolderNames = ["public", "_site", "dist", "build", "out", "site", "www", "docs", "html"]

    /// The folder, below `siteRoot`, that holds every image the site names: their deepest
    /// common folder ("" for `siteRoot` itself).
    public var imageFolder: String { Self.commonFolder(of: images) }

    /// Surveys `folder`.
    public static func survey(_ given: String) throws(InitError) -> SiteSurvey {
        let folder = given.count > 1 && given.hasSuffix("/") ? String(given.dropLast()) : given
        guard let status = FileStatus.at(folder), status.isFolder else { throw .notAFolder(folder) }
        var html: [String] = []
        var tooling: [String] = []
        var files: [String: [(path: String, size: Int)]] = [:]
        FolderWalk.visit(under: folder, entering: { !skippedFolders.contains($0.name) }) { entry in
            if entry.status.isFolder, skippedFolders.contains(entry.name) { tooling.append(entry.relative) }
            guard entry.status.isRegularFile else { return }
            if entry.name.lowercased().hasSuffix(".html") { html.append(entry.relative) }
            files[entry.name, default: []].append((entry.relative, entry.status.size))
        }
        guard !html.isEmpty else { throw .noPages(folder) }
        let (root, evidence) = publishedFolder(of: html)
        let pages = html.compactMap { relative(of: $0, under: root) }.sorted()

        var images: [String] = [], stylesheetImages: [String] = [], sheets: [String] = []
        var seenSheets = Set<String>()
        for page in pages {
            guard let bytes = try? AtomicFile.read(join(folder, root, page)) else { continue }
            let references = FileReferences(page: bytes, path: page)
            images += references.images
            sheets += references.stylesheets.filter { seenSheets.insert($0).inserted }
        }
        var loaded: [String] = []
        var next = 0
        while next < sheets.count {
            let sheet = sheets[next]
            next += 1
            guard let bytes = try? AtomicFile.read(join(folder, root, sheet)) else { continue }
            loaded.append(sheet)
            let references = FileReferences(stylesheet: bytes, path: sheet)
            stylesheetImages += references.images
            sheets += references.stylesheets.filter { seenSheets.insert($0).inserted }
        }
        let named = Set(images + stylesheetImages).filter { path in
            ImageFormat(fileExtension: (path as NSString).pathExtension).map { $0.isMasterFormat && !$0.isVector } ?? false
        }
        let present = named.filter { FileStatus.at(join(folder, root, $0))?.isRegularFile == true }
        let fromPages = Set(images)
        let found = present.sorted()
        let survey = SiteSurvey(
            folder: folder, siteRoot: root, rootEvidence: evidence, pages: pages, stylesheets: loaded.sorted(),
            images: found, stylesheetOnlyImages: found.filter { !fromPages.contains($0) },
            missingImages: named.subtracting(present).sorted(),
            toolingFolders: tooling.sorted(), masterFolder: nil)
        guard !found.isEmpty else { throw .noImages(folder: folder, siteRoot: root, pages: pages.count, missing: survey.missingImages) }
        return survey.with(masterFolder: masterFolder(of: survey, files: files))
    }

    private func with(masterFolder: String?) -> SiteSurvey {
        SiteSurvey(folder: folder, siteRoot: siteRoot, rootEvidence: rootEvidence, pages: pages, stylesheets: stylesheets,
                   images: images, stylesheetOnlyImages: stylesheetOnlyImages, missingImages: missingImages,
                   toolingFolders: toolingFolders, masterFolder: masterFolder)
    }

    /// The shallowest folder with an `index.html` (by `publishedFolderNames`, then by name,
    /// among folders as deep), else the deepest folder holding every page.
    public static func publishedFolder(of pages: [String]) -> (String, RootEvidence) {
        let indexFolders = pages.filter { ($0 as NSString).lastPathComponent.lowercased() == "index.html" }
            .map { ($0 as NSString).deletingLastPathComponent }
        guard !indexFolders.isEmpty else { return (commonFolder(of: pages), .commonFolder) }
        func depth(_ path: String) -> Int { path.isEmpty ? 0 : path.split(separator: "/").count }
        func preference(_ path: String) -> Int {
            publishedFolderNames.firstIndex(of: (path as NSString).lastPathComponent) ?? publishedFolderNames.count
        }
        let best = indexFolders.min { a, b in
            (depth(a), preference(a), a) < (depth(b), preference(b), b)
        }
        return (best ?? "", .index)
    }

    /// The deepest folder every path (a file's, relative) lies in; "" when they share none.
    public static func commonFolder(of paths: [String]) -> String {
        var common: [Substring]?
        for path in paths {
            let folders = path.split(separator: "/").dropLast()
            guard let shared = common else {
                common = Array(folders)
                continue
            }
            common = Array(zip(shared, folders).prefix { $0 == $1 }.map(\.0))
        }
        return (common ?? []).joined(separator: "/")
    }

    /// The folder outside the site that holds every image of `survey.imageFolder` at the same
    /// path below it, with the same bytes (the first by name when several do).
    private static func masterFolder(of survey: SiteSurvey, files: [String: [(path: String, size: Int)]]) -> String? {
        guard !survey.siteRoot.isEmpty else { return nil }
        let imageFolder = join(survey.siteRoot, survey.imageFolder)
        var candidates: Set<String>?
        for image in survey.images {
            guard let below = relative(of: image, under: survey.imageFolder) else { return nil }
            let published = join(survey.folder, survey.siteRoot, image)
            guard let size = FileStatus.at(published)?.size, let bytes = try? AtomicFile.read(published) else { return nil }
            var folders = Set<String>()
            for other in files[(image as NSString).lastPathComponent] ?? [] where other.size == size {
                guard relative(of: other.path, under: survey.siteRoot) == nil,
                      other.path == below || other.path.hasSuffix("/" + below) else { continue }
                let folder = String(other.path.dropLast(below.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
                guard folder != imageFolder, candidates?.contains(folder) ?? true,
                      (try? AtomicFile.read(join(survey.folder, other.path))) == bytes else { continue }
                folders.insert(folder)
            }
            candidates = folders
            if folders.isEmpty { return nil }
        }
        return candidates?.sorted().first
    }

    /// `path` below `folder` ("" is everything), or nil when it is not inside it.
    static func relative(of path: String, under folder: String) -> String? {
        if folder.isEmpty { return path }
        return path.hasPrefix(folder + "/") ? String(path.dropFirst(folder.count + 1)) : nil
    }

    /// Joins path pieces with `/`, leaving out empty ones and a leading `.`.
    public static func join(_ pieces: String...) -> String {
        let kept = pieces.enumerated().filter { !$0.element.isEmpty && !($0.offset == 0 && $0.element == ".") }.map(\.element)
        return kept.isEmpty ? "." : kept.joined(separator: "/")
    }
}
