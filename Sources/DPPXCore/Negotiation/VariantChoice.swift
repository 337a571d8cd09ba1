/// Which file of an image whose size was stated a client gets, and what the response must say
/// about that choice. Made only by `VariantNegotiator`, which first decides whether the image is
/// negotiated at all.
///
/// The rules:
/// - Format: among the formats built that the client accepts at its highest weight, the one
///   whose file of the chosen density (or width) has the fewest bytes by the manifest, so a
///   photo whose AVIF is smaller than its JPEG XL gets AVIF and the reverse gets JPEG XL (equal
///   or unknown sizes: AVIF, WebP, JPEG XL, then the master's own format). An extra format is
///   accepted only when `Accept` names it explicitly with a weight above 0; the master's own
///   format also through a wildcard. No `Accept`, or `*/*` alone, means the master's format.
/// - Density: the smallest one at or above the client's DPR, else the largest (DPR 1.2 gets
///   1.5x, DPR 3 gets 2x when 2x is the largest).
/// - Density signal (`DensitySignal`): EXIF density written into a JPEG (every engine) or, for
///   a client without hints, a PNG; `Content-DPR` for a client with hints (Chromium) when the
///   format carries no density it reads. A client without hints (Firefox, Safari) whose density
///   is above 1 gets a JPEG or PNG instead of AVIF or WebP, which carry no density a browser
///   reads (the smaller of those built and accepted); so does a client with hints when
///   `Content-DPR` would be inexact (a 301 px wide 2x variant of a 151 px image).
///   `Content-DPR` is the last resort when no such format was built, and then only for a
///   variant whose pixels divide by its density exactly (else the nearest one that does: the
///   1x always does), so the box is never a fraction of a pixel off.
/// - Width, for a fluid image: the smallest width at least `ClientWidth.devicePixels`, else
///   the largest; its density is never negotiated (the page sizes a fluid image), so
///   its `signal` is `.none`.
/// - `vary` names the request headers read, so shared caches key on them: the same for every
///   answer of one image to requests carrying the same headers, whichever file is chosen (the
///   density headers when the image has more than one density or a file that is not its CSS
///   size, the width headers when a fluid image has more than one width, `Accept` when it has
///   more than one format). A `Vary` that depended on the file chosen would let a cache hand an
///   answer without it (a 1x WebP of an image whose WebP stops at 1x) to every other client. A
///   density decided by the cookie is `isPrivate`, because caches cannot key on one cookie well.
public struct VariantChoice: Sendable, Equatable {
    /// The file to send.
    public let variant: Manifest.Variant
    /// The client's ratio as read (not the variant's density).
    public let dpr: ClientDPR
    /// For a fluid image, the width the client needs as read (what chose the rung); nil for
    /// density variants.
    public let width: ClientWidth?
    /// Request headers the choice depended on: `Sec-CH-DPR`, `DPR`, `Cookie`, `Accept`.
    public let vary: [String]
    /// True when the `dpr` cookie decided the density: send `Cache-Control: private`.
    public let isPrivate: Bool
    /// How the answer says the variant's density.
    public private(set) var signal: DensitySignal

    /// Chooses among `image`'s variants; nil when it lists none. The width hints are read for a
    /// fluid image only.
    init?(image: Manifest.Image, hints: ClientHints) {
        let dpr = hints.dpr, accept = hints.accept
        let formats = image.formats
        guard !formats.isEmpty else { return nil }
        let accepted = Self.acceptedFormats(among: formats, primary: image.primaryFormat, accept: accept)
        if image.isFluid {
            // The width comes from the master's format, which has every rung: a rung's extra
            // format is missing when it was not smaller, and that rung is then sent as it is.
            // Among the accepted formats that have the rung, the fewest bytes win.
            let candidates = image.variants(in: image.primaryFormat)
            let width = hints.width
            guard let widest = candidates.max(by: { $0.width < $1.width }) else { return nil }
            let rung = candidates.filter { $0.width >= width.devicePixels }.min { $0.width < $1.width } ?? widest
            let variant = accepted.compactMap { format in image.variants(in: format).first { $0.width == rung.width } }
                .min(by: Self.fewerBytes) ?? rung
            let widthNegotiated = candidates.contains { $0.width != widest.width }
            self.variant = variant
            self.dpr = dpr
            self.width = width
            self.vary = (widthNegotiated ? width.varyHeaders : []) + (formats.count > 1 ? ["Accept"] : [])
            self.isPrivate = widthNegotiated && width.isPrivate
            self.signal = .none
            return
        }
        let hinted = dpr.source == .secCHDPR || dpr.source == .dpr
        // An accepted extra format without a file at this density (not smaller, so not built)
        // leaves the master's format.
        guard var variant = accepted.compactMap({ Self.variant(of: image, in: $0, dpr: dpr.value) }).min(by: Self.fewerBytes)
                ?? Self.variant(of: image, in: image.primaryFormat, dpr: dpr.value) else { return nil }
        var format = variant.format
        // Content-DPR reaches only clients with hints, and gives the CSS size only when the
        // pixels divide by the density exactly: otherwise a JPEG or PNG that carries EXIF.
        let headerSuffices = hinted && Self.divides(variant, into: image.cssSize)
        if variant.size != image.cssSize, !headerSuffices, !DensitySignal.exifIsRead(in: format, hinted: hinted),
           let carrier = Self.smallestCarrier(of: image, among: formats, hinted: hinted, accept: accept, dpr: dpr.value) {
            format = carrier.format
            variant = carrier
        }
        // Content-DPR is the last resort: never with a density the pixels do not divide by
        // exactly (a box a fraction of a pixel off), but with the nearest variant they do.
        if variant.size != image.cssSize, !DensitySignal.exifIsRead(in: format, hinted: hinted),
           !Self.divides(variant, into: image.cssSize),
           let exact = Self.exactVariant(of: image, in: format, dpr: dpr.value) {
            variant = exact
        }
        let signal: DensitySignal
        if variant.size == image.cssSize {
            signal = .none
        } else if DensitySignal.exifIsRead(in: format, hinted: hinted),
                  let exif = ExifDensity(pixelSize: variant.size, cssSize: image.cssSize) {
            signal = .exif(exif)
        } else {
            signal = .contentDPR(variant.density)
        }
        // Whether any answer of this image depends on the density: another density, or a signal
        // (and with it the format) that depends on whether hints were sent.
        let densityNegotiated = image.variants.contains { $0.density != variant.density || $0.size != image.cssSize }
        var vary = densityNegotiated ? dpr.varyHeaders : []
        if formats.count > 1 { vary.append("Accept") }
        self.variant = variant
        self.dpr = dpr
        self.width = nil
        self.vary = vary
        self.isPrivate = densityNegotiated && dpr.source == .cookie
        self.signal = signal
    }

    /// The same choice with the density said by `Content-DPR` instead of EXIF: for a file that
    /// cannot carry EXIF density after all (not the JPEG or PNG the manifest says, or one that
    /// has EXIF already). Vary and validators stay the choice's.
    public func sayingDensityInHeader() -> VariantChoice {
        guard case .exif = signal else { return self }
        var copy = self
        copy.signal = .contentDPR(variant.density)
        return copy
    }

    /// Whether `variant`'s pixels divided by its density are exactly `cssSize`. A product that
    /// overflows (an image built in code with sizes no manifest may hold) is not exact.
    private static func divides(_ variant: Manifest.Variant, into cssSize: PixelSize) -> Bool {
        func exact(_ pixels: Int, _ css: Int) -> Bool {
            let left = pixels.multipliedReportingOverflow(by: 1000)
            let right = css.multipliedReportingOverflow(by: variant.density.milli)
            return !left.overflow && !right.overflow && left.partialValue == right.partialValue
        }
        return exact(variant.width, cssSize.width) && exact(variant.height, cssSize.height)
    }

    /// `image`'s variant in `format` whose size is the CSS size times its density exactly (the
    /// 1x always is) that suits `dpr` best.
    private static func exactVariant(of image: Manifest.Image, in format: ImageFormat, dpr: Density) -> Manifest.Variant? {
        let exact = image.variants(in: format).filter { $0.size == image.cssSize || divides($0, into: image.cssSize) }
        guard let density = density(for: dpr, among: exact.map(\.density)) else { return nil }
        return exact.first { $0.density == density }
    }

    /// The fewest bytes among `image`'s variants for `dpr` in a format whose EXIF density the
    /// client reads and that it accepts: a PNG master built with `--formats jpeg` so gives the
    /// JPEG rather than its PNG. JPEG and PNG are decoded by every browser, so a wildcard
    /// (`image/*`) accepts them, unless it or the type itself has weight 0.
    private static func smallestCarrier(of image: Manifest.Image, among formats: [ImageFormat], hinted: Bool,
                                        accept: AcceptHeader, dpr: Density) -> Manifest.Variant? {
        formats.filter { format in
            DensitySignal.exifIsRead(in: format, hinted: hinted)
                && (format == image.primaryFormat || !accept.isPresent || (accept.quality(of: format.mediaType) ?? 0) > 0)
        }
        .compactMap { variant(of: image, in: $0, dpr: dpr) }
        .min { $0.bytes < $1.bytes }
    }

    /// `image`'s variant in `format` whose density suits `dpr`, the density chosen among the
    /// master format's (which has them all); nil when `format` has no file at that density (it
    /// was not smaller than the master-format one, so the build left it out).
    private static func variant(of image: Manifest.Image, in format: ImageFormat, dpr: Density) -> Manifest.Variant? {
        let primary = image.variants(in: image.primaryFormat)
        guard let density = density(for: dpr, among: (primary.isEmpty ? image.variants(in: format) : primary).map(\.density)) else { return nil }
        return image.variants(in: format).first { $0.density == density }
    }

    /// The smallest of `densities` at or above `dpr`, else the largest; nil when empty.
    public static func density(for dpr: Density, among densities: [Density]) -> Density? {
        densities.filter { $0 >= dpr }.min() ?? densities.max()
    }

    /// The encodings the client takes at its highest weight: among `formats`, the extra ones
    /// only when `accept` names them, `primary` always (alone when no extra one is accepted
    /// above its weight, and when there is no `Accept`); in `ImageFormat` order.
    public static func acceptedFormats(among formats: [ImageFormat], primary: ImageFormat, accept: AcceptHeader) -> [ImageFormat] {
        guard accept.isPresent else { return [primary] }
        var best = [primary]
        var bestQuality = accept.quality(of: primary.mediaType) ?? 0
        for format in formats.sorted() where format != primary {
            guard let quality = accept.explicitQuality(of: format.mediaType), quality > 0 else { continue }
            if quality > bestQuality {
                best = [format]
                bestQuality = quality
            } else if quality == bestQuality {
                best.append(format)
            }
        }
        return best.sorted()
    }

    /// The file with fewer bytes; equal (or unknown) sizes by `ImageFormat` order.
    static func fewerBytes(_ lhs: Manifest.Variant, _ rhs: Manifest.Variant) -> Bool {
        (lhs.bytes, lhs.format) < (rhs.bytes, rhs.format)
    }
}
