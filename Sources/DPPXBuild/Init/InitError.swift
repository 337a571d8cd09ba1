import DPPXCore
import DPPXFiles

/// Why `dppx init` wrote no project file.
public enum InitError: Error, CustomStringConvertible, Equatable, Sendable {
    case notAFolder(String)
    /// No `*.html` under the folder.
    case noPages(String)
    /// Pages, but none names an image of the site that is there.
    case noImages(folder: String, siteRoot: String, pages: Int, missing: [String])
    /// The folder has a project file already: init never writes over one.
    case exists(String)
    case file(FileError)

    public var description: String {
        switch self {
        case .notAFolder(let path):
            "\(path): not a folder; run dppx init in a site's folder, or name it: dppx init site"
        case .noPages(let folder):
            "\(folder): no *.html page in this folder or below (hidden folders and node_modules skipped); run dppx init in the folder of a site, the one holding its pages or the folder it publishes"
        case .noImages(let folder, let siteRoot, let pages, let missing):
            "\(SiteSurvey.join(folder, siteRoot)): none of its \(pages) page\(pages == 1 ? "" : "s") or their stylesheets names a JPEG, PNG, WebP, AVIF, GIF, TIFF or HEIC image that is there"
                + (missing.isEmpty ? "" : " (named but missing: \(missing.prefix(3).joined(separator: ", "))\(missing.count > 3 ? ", ..." : ""))")
                + "; build the site's pages first, or write dppx.toml by hand (docs/project-file.md)"
        case .exists(let path):
            "\(path) already exists, and dppx init never writes over a project file: edit it (docs/project-file.md), or move it away and run dppx init again (dppx init --dry-run prints what it would write)"
        case .file(let error):
            error.description
        }
    }

    /// Whether the command line was wrong (exit 2): a project file already there, or no folder.
    public var isUsageError: Bool {
        switch self {
        case .exists, .notAFolder: true
        case .noPages, .noImages, .file: false
        }
    }
}
