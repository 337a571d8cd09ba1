import DPPXCore
import DPPXFiles
import DPPXMeasure
import DPPXRewrite
import Foundation

/// What a page view of a site costs in image bytes, before and after dppx (`PageViewCost`),
/// read from the files on disk after a build or a rewrite: the manifests under the site's root,
/// its layout file, and the size of each plain file that is a master built in place.
///
/// `dppx build` (with `[rewrite] pages`) and `dppx rewrite` print `line`; `dppx build --json`
/// has the whole value, per page and image.
public enum PageViewReport {
    /// The layout file at `path`; empty when there is none, or it is of another version.
    public static func layout(at path: String) -> LayoutFile {
        SiteMeasurement.read(path)
    }

    /// The cost of a page view of the site at `root` whose pages offer extra formats in a
    /// `<picture>` when `picture`; nil when no page was measured or none shows an image dppx built.
    public static func read(root: String, picture: Bool) -> PageViewCost? {
        let site = SiteManifestReader.read(under: root).site
        return cost(root: root, site: site, layout: layout(at: MeasuredRewrite.layoutPath(root: root)), picture: picture)
    }

    /// The cost of a page view from `layout` and the manifests of `site` (under `root`, whose
    /// masters built in place are looked at for their size).
    public static func cost(root: String, site: SiteManifests, layout: LayoutFile, picture: Bool) -> PageViewCost? {
        guard !layout.pages.isEmpty else { return nil }
        var images: [String: Manifest.Image] = [:]
        var fileBytes: [String: Int] = [:]
        for image in site.images where images[image.path] == nil {
            images[image.path] = image
            if !image.variants.contains(where: { $0.path == image.path }),
               let status = FileStatus.at(root + "/" + image.path), status.isRegularFile {
                fileBytes[image.path] = status.size
            }
        }
        let cost = PageViewCost(layout: layout, images: images, fileBytes: fileBytes, picture: picture) { page, src in
            FileReferences.sitePath(of: src, inPage: page)
        }
        return cost.pages.isEmpty ? nil : cost
    }

    /// `image bytes per page view, before -> after: phone 2.4 MB -> 310 KB, laptop 1.9 MB ->
    /// 190 KB, desktop 2.4 MB -> 420 KB (AVIF; JPEG-only browsers 1.1 MB, 560 KB, 1.4 MB)`: the
    /// formats `<picture>` and `image-set()` added (most bytes first), then what a browser that
    /// takes none of them fetches at each profile.
    public static func line(_ cost: PageViewCost) -> String {
        let totals = cost.totals.map { "\($0.profile) \(BuildReport.size($0.before)) -> \(BuildReport.size($0.after))" }
        var line = "image bytes per page view, before -> after: " + totals.joined(separator: ", ")
        // The formats a <picture> or image-set() added, and what browsers without them fetch.
        let legacy = cost.legacyFormats
        let added = cost.afterFormats.filter { !legacy.contains($0) }
        if !added.isEmpty {
            line += " (\(added.map(name).joined(separator: "/")); \(legacy.map(name).joined(separator: "/"))-only browsers "
                + cost.totals.map { BuildReport.size($0.legacy) }.joined(separator: ", ") + ")"
        } else if !legacy.isEmpty {
            line += " (\(legacy.map(name).joined(separator: "/")))"
        }
        if cost.pages.count > 1 { line += ", summed over \(cost.pages.count) pages" }
        return line
    }

    static func name(_ format: ImageFormat) -> String {
        switch format {
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .jxl: "JPEG XL"
        default: format.rawValue.uppercased()
        }
    }
}
