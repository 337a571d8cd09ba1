/// Decides what an image's plain URL (`/hero.jpg`, a fluid image's widest file) is answered
/// with for one request: the one place that does. `dppx serve` sends what it returns, and the
/// `/_dppx/` inspector shows what it returns, so the page says what the server sends.
///
/// In order:
/// 1. a vector image is one file, right at every density: its own file;
/// 2. an image whose size nobody stated (`Manifest.Image.sizeIsGiven`: no `@Nx` name, rule or
///    option) is its own file too, as a plain static server sends it, so a page never told
///    about dppx lays out as it did;
/// 3. otherwise `VariantChoice`: the variant for the hints (density or width, format), how
///    the answer says its density, `Vary` and whether caches may share it.
///
/// Pure: it reads the manifest's image and the request's hints, never the disk. What the disk
/// can still change (a variant missing, a file that cannot carry EXIF) is the server's to
/// handle, with `VariantChoice.sayingDensityInHeader()` for the latter.
public enum VariantNegotiator {
    public static func negotiate(_ image: Manifest.Image, hints: ClientHints) -> Negotiation {
        if image.densityIndependent { return .ownFile(.vector) }
        guard image.sizeIsGiven else { return .ownFile(.sizeNotStated) }
        guard let choice = VariantChoice(image: image, hints: hints) else { return .ownFile(.noVariants) }
        return .variant(choice)
    }
}
