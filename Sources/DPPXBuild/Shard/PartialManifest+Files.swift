import DPPXCore
import DPPXFiles

extension PartialManifest {
    /// The partial manifests (`dppx-manifest.shard-K-of-N.json`) directly in `folder`, sorted by
    /// shard; empty when there are none or the folder cannot be listed.
    static func names(inFolder folder: String) -> [String] {
        let names = ((try? Folder.names(at: folder)) ?? []).map { String(decoding: $0, as: UTF8.self) }
        return names.compactMap { name in shard(inFileName: name).map { (name, $0) } }
            .sorted { ($0.1.count, $0.1.index) < ($1.1.count, $1.1.index) }
            .map(\.0)
    }
}
