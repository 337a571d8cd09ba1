import DPPXCore
import HTTPTypes

/// The headers that describe a negotiated image response: which representation was sent and
/// what it depended on.
struct VariantHeaders {
    let choice: VariantChoice
    let cachePolicy: CachePolicy
    /// False when the file on disk no longer has the manifest's size (a build is rewriting it):
    /// the manifest's hash then cannot vouch for the bytes.
    let hashTrusted: Bool

    /// A strong validator from the variant's content hash: each variant has its own, so a client
    /// holding one variant can never have another one validated by it.
    var entityTag: String { "\"\(choice.variant.hash)\"" }

    /// The variant's own URL (RFC 9110 `Content-Location`), which the access log also reports.
    var contentLocation: String { "/" + URLEncoding.encodePath(choice.variant.path) }

    /// What the headers depend on besides the file: equal keys, equal headers.
    struct Key: Hashable {
        let hash: String
        /// Nil when no density is sent (a fluid image).
        let density: Density?
        let vary: [String]
        let isPrivate: Bool
        let hashTrusted: Bool
    }

    var key: Key {
        Key(hash: choice.variant.hash, density: choice.sendsDensity ? choice.variant.density : nil, vary: choice.vary,
            isPrivate: choice.isPrivate, hashTrusted: hashTrusted)
    }

    /// Sets them on `fields`, replacing the file's weak modification-time `ETag` when the hash is trusted.
    func apply(to fields: inout HTTPFields) {
        if !choice.vary.isEmpty { fields[.vary] = choice.vary.joined(separator: ", ") }
        if choice.sendsDensity { fields[.contentDPR] = choice.variant.density.description }
        fields[.contentLocation] = contentLocation
        fields[.cacheControl] = (choice.isPrivate ? cachePolicy.privateVariant : cachePolicy).description
        if hashTrusted { fields[.eTag] = entityTag }
    }
}
