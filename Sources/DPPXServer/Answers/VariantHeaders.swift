import DPPXCore
import HTTPTypes

/// The headers that describe a negotiated image response: which representation was sent and
/// what it depended on.
struct VariantHeaders {
    let choice: VariantChoice
    let cachePolicy: CachePolicy
    /// False when the file on disk no longer has the manifest's size (a build is rewriting it) or
    /// is newer than the manifest (changed in place since):
    /// the manifest's hash then cannot vouch for the bytes.
    let hashTrusted: Bool

    /// How the answer says its density.
    var signal: DensitySignal { choice.signal }

    /// A strong validator from the variant's content hash: each variant has its own, so a client
    /// holding one variant can never have another one validated by it. An answer with EXIF
    /// density written in is another representation of the file: its tag adds the density.
    var entityTag: String { "\"\(choice.variant.hash)\(representationSuffix)\"" }

    /// `-2x` for an answer with EXIF density written in, else empty.
    private var representationSuffix: String {
        if case .exif = signal { "-\(choice.variant.density)x" } else { "" }
    }

    /// The variant's own URL (RFC 9110 `Content-Location`), which the access log also reports.
    var contentLocation: String { "/" + URLEncoding.encodePath(choice.variant.path) }

    /// What the headers depend on besides the file: equal keys, equal headers.
    struct Key: Hashable {
        let hash: String
        let density: Density
        let vary: [String]
        let isPrivate: Bool
        let hashTrusted: Bool
        let signal: DensitySignal
    }

    var key: Key {
        Key(hash: choice.variant.hash, density: choice.variant.density, vary: choice.vary,
            isPrivate: choice.isPrivate, hashTrusted: hashTrusted, signal: signal)
    }

    /// Sets them on `fields`: the strong `ETag` when the hash is trusted, else the file's weak
    /// modification-time tag (with the density when it was written in). `Content-DPR` only when
    /// it is the signal: beside EXIF density Chromium would apply both.
    func apply(to fields: inout HTTPFields) {
        if !choice.vary.isEmpty { fields[.vary] = choice.vary.joined(separator: ", ") }
        if case .contentDPR(let density) = signal { fields[.contentDPR] = density.description }
        fields[.contentLocation] = contentLocation
        fields[.cacheControl] = (choice.isPrivate ? cachePolicy.privateVariant : cachePolicy).description
        if hashTrusted {
            fields[.eTag] = entityTag
        } else if let weak = fields[.eTag], !representationSuffix.isEmpty {
            fields[.eTag] = weak.dropLast() + representationSuffix + "\""
        }
    }
}
