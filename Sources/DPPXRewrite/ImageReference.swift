import DPPXCore
import Foundation

/// An image of the site as one page or stylesheet refers to it: the image, and its files'
/// URLs written the way the page wrote the one it names.
struct ImageReference: Sendable {
    let entry: SiteImages.Entry
    /// The URL as written (trimmed).
    let written: String
    /// The variants' URLs, arranged for `srcset` and `image-set()`.
    let candidates: ImageCandidates

    /// The image `written` names in the page at `pagePath`, when it is an image's plain URL;
    /// nil for other files, other origins and explicit variants (`hero@2x.jpg`: the page chose).
    init?(_ written: String, pagePath: String?, images: SiteImages, baseURL: String?) {
        guard let url = ImageURL(written, pagePath: pagePath, baseURL: baseURL),
              let match = images.match(url.path), match.isPlainPath, !match.entry.image.densityIndependent else { return nil }
        entry = match.entry
        self.written = written.trimmingCharacters(in: .whitespacesAndNewlines)
        // Paths relative to the image's folder, written after the page's own prefix.
        var local = match.entry.image
        let cut = match.entry.folder.isEmpty ? 0 : match.entry.folder.count + 1
        local.path = String(local.path.dropFirst(cut))
        local.variants = local.variants.map { variant in
            var moved = variant
            moved.path = String(variant.path.dropFirst(cut))
            return moved
        }
        let urls: URLBase = url.folderPrefix.isEmpty ? .relative("") : .absolute(url.folderPrefix)
        candidates = ImageCandidates(image: local, urls: urls)
        writtenNamesFallback = urls.url(for: local.path) == candidates.fallback.url
    }

    /// Whether the URL the page wrote is the 1x file's; not in a site built in place, where the
    /// plain URL keeps the master and the 1x file has a name of its own (`hero@1x.jpg`).
    private let writtenNamesFallback: Bool

    /// Whether every URL in `urls` is named as a file of this image (`ImageFileNames`): a
    /// `srcset`, `<source>` or `image-set()` dppx wrote, before or since the last rebuild.
    func owns(_ urls: [String], pagePath: String?, baseURL: String?) -> Bool {
        let names = ImageFileNames(plainPath: entry.image.path)
        return !urls.isEmpty && urls.allSatisfy { url in
            ImageURL(url, pagePath: pagePath, baseURL: baseURL).map { names.names($0.path) } ?? false
        }
    }

    /// Whether `srcset` is one dppx wrote for this image: its candidates named as this image's
    /// files, each with a density or width descriptor.
    func owns(srcsetByDppx srcset: String, pagePath: String?, baseURL: String?) -> Bool {
        let candidates = PageRewriter.srcsetCandidates(srcset)
        return candidates.allSatisfy { $0.descriptor.map(ImageFileNames.isDescriptor) ?? false }
            && owns(candidates.map(\.url), pagePath: pagePath, baseURL: baseURL)
    }

    /// The master-format candidates, the plain one written exactly as the page wrote it (so the
    /// browser fetches one URL for both).
    var primary: [ImageCandidates.Candidate] { candidates.primary }

    /// `url` of `candidate`, the page's own spelling for the plain file.
    func url(of candidate: ImageCandidates.Candidate) -> String {
        if writtenNamesFallback, candidate.url == candidates.fallback.url, !written.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "," }) { return written }
        return candidate.url
    }

    /// The `srcset` value: `x` descriptors for density images, `w` for fluid ones.
    var srcset: String {
        primary.map { "\(url(of: $0)) \($0.descriptor)" }.joined(separator: ", ")
    }
}
