import DPPXBuild
import DPPXCore
import DPPXFiles
import NIOConcurrencyHelpers

/// What a page view costs, for the inspector: read from the layout file and the manifests the
/// server holds, and read again only when the layout file (its size and time) or the manifests
/// (another load) change, so an inspector asked for often does not parse the layout each time.
final class PageViewCache: Sendable {
    private struct Key {
        let index: ManifestIndex
        let layout: FileStatus?
    }

    private let cached = NIOLockedValueBox<(key: Key, cost: PageViewCost?)?>(nil)
    let root: String
    let picture: Bool

    init(root: String, picture: Bool) {
        self.root = root
        self.picture = picture
    }

    /// The cost with the manifests of `index`; nil without a layout file or a measured page.
    func cost(_ index: ManifestIndex) -> PageViewCost? {
        let path = MeasuredRewrite.layoutPath(root: root)
        let key = Key(index: index, layout: FileStatus.at(path))
        if let hit = cached.withLockedValue({ $0 }), hit.key.index.isSameLoad(as: index), hit.key.layout == key.layout {
            return hit.cost
        }
        let cost = key.layout == nil ? nil
            : PageViewReport.cost(root: root, site: index.site, layout: PageViewReport.layout(at: path), picture: picture)
        cached.withLockedValue { $0 = (key, cost) }
        return cost
    }
}
