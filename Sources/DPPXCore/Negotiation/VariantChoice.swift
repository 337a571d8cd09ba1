/// Which file of an image a client gets, and what the response must say about that choice.
///
/// The rules (the server's, and the inspector page's "this browser gets"):
/// - Format: AVIF, then WebP, then the master's own format, among those built. An extra format
///   is chosen only when `Accept` names it explicitly with a weight above 0; higher weights win,
///   ties go to the smaller format. No `Accept`, or `*/*` alone, means the master's format.
/// - Density: the smallest one at or above the client's DPR, else the largest (DPR 1.2 gets
///   1.5x, DPR 3 gets 2x when 2x is the largest).
/// - Width, for a fluid image: the smallest width at least `ClientWidth.devicePixels`, else
///   the largest; its density is never negotiated (the page sizes a fluid image), so
///   `sendsDensity` is false.
/// - `vary` names exactly the request headers read, so shared caches key on them; a density
///   decided by the cookie is `isPrivate`, because caches cannot key on one cookie well.
public struct VariantChoice: Sendable, Equatable {
    /// The file to send.
    public let variant: Manifest.Variant
    /// The client's ratio as read (not the variant's density).
    public let dpr: ClientDPR
    /// Request headers the choice depended on: `Sec-CH-DPR`, `DPR`, `Cookie`, `Accept`.
    public let vary: [String]
    /// True when the `dpr` cookie decided the density: send `Cache-Control: private`.
    public let isPrivate: Bool
    /// False for a fluid image: the answer says nothing of density (no `Content-DPR`).
    public let sendsDensity: Bool

    /// Chooses among `image`'s variants; nil when it lists none. `width` is read for a fluid
    /// image only (nil: the client said nothing).
    public init?(image: Manifest.Image, dpr: ClientDPR, accept: AcceptHeader, width: ClientWidth? = nil) {
        let formats = image.formats
        guard !formats.isEmpty else { return nil }
        let format = Self.format(among: formats, primary: image.primaryFormat, accept: accept)
        let candidates = image.variants(in: format)
        if image.isFluid {
            let width = width ?? .unknown
            guard let widest = candidates.max(by: { $0.width < $1.width }) else { return nil }
            let variant = candidates.filter { $0.width >= width.devicePixels }.min { $0.width < $1.width } ?? widest
            let widthNegotiated = candidates.contains { $0.width != variant.width }
            self.variant = variant
            self.dpr = dpr
            self.vary = (widthNegotiated ? width.varyHeaders : []) + (formats.count > 1 ? ["Accept"] : [])
            self.isPrivate = widthNegotiated && width.isPrivate
            self.sendsDensity = false
            return
        }
        guard let density = Self.density(for: dpr.value, among: candidates.map(\.density)),
              let variant = candidates.first(where: { $0.density == density })
        else { return nil }
        let densityNegotiated = candidates.contains { $0.density != variant.density }
        var vary = densityNegotiated ? dpr.varyHeaders : []
        if formats.count > 1 { vary.append("Accept") }
        self.variant = variant
        self.dpr = dpr
        self.vary = vary
        self.isPrivate = densityNegotiated && dpr.source == .cookie
        self.sendsDensity = true
    }

    /// The smallest of `densities` at or above `dpr`, else the largest; nil when empty.
    public static func density(for dpr: Density, among densities: [Density]) -> Density? {
        densities.filter { $0 >= dpr }.min() ?? densities.max()
    }

    /// The encoding to send: among `formats`, the extra ones only when `accept` names them,
    /// `primary` always; highest weight first, then smallest format.
    public static func format(among formats: [ImageFormat], primary: ImageFormat, accept: AcceptHeader) -> ImageFormat {
        guard accept.isPresent else { return primary }
        var best = primary
        var bestQuality = accept.quality(of: primary.mediaType) ?? 0
        for format in formats.sorted() where format != primary {
            guard let quality = accept.explicitQuality(of: format.mediaType), quality > 0 else { continue }
            if quality > bestQuality || (quality == bestQuality && format < best) {
                best = format
                bestQuality = quality
            }
        }
        return best
    }
}
