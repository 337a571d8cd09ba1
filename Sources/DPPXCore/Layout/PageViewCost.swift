/// What a page view costs in image bytes, before and after dppx, from the measured layout
/// (`LayoutFile`) and the manifests: for every measured page, every `<img>` and CSS background
/// of an image dppx built, and every `ViewingProfile`, the file a browser fetches.
///
/// - **Before**: the plain file the untouched page names.
/// - **After**: what the browser picks among the candidates the rewrite writes
///   (`ImageCandidates`), by Chromium's `srcset` selection: candidates by density (a `w`
///   descriptor's width over the width the content is painted at, the `sizes` dppx writes from
///   the measured box and its `object-fit`; an `x` descriptor's file width over the CSS width),
///   the smallest at or above the DPR, unless the one below is closer by the geometric mean
///   (Blink's `SelectionLogic`). With `<picture>`
///   the first `<source>`'s format (the extra format of fewest bytes: AVIF, usually); a CSS
///   background's `image-set()` lists that format first with `type()`, and the browser takes
///   the smallest resolution at or above its DPR. `legacy` is the same without AVIF or WebP: the
///   master's format.
/// - An image left without candidates (one file only, a box that follows its natural width, a
///   page whose rewrite was undone) costs its plain file after as before.
///
/// The box at a profile is the one measured at the widest viewport at or below the profile's
/// width (measuring samples viewport widths at an 800 px tall viewport; the narrowest sample
/// when all are wider). A fluid background is taken as a `w`-described image of its painted
/// width. Images dppx did not build, and pages never measured, are not counted.
public struct PageViewCost: Sendable, Codable, Equatable {
    /// One file fetched.
    public struct File: Sendable, Codable, Equatable {
        /// Relative to the site's root.
        public let path: String
        public let bytes: Int
    }

    /// What one profile fetches for one image.
    public struct Fetch: Sendable, Codable, Equatable {
        public let profile: String
        /// The width, in CSS px, the image is drawn at there (an `<img>`'s content, its box's
        /// width unless its `object-fit` paints it otherwise, or a background's painted width).
        public let width: Double
        public let before: File
        public let after: File
        public let legacy: File
    }

    /// One `<img>` or background of a page.
    public struct Occurrence: Sendable, Codable, Equatable {
        public enum Kind: String, Sendable, Codable { case img, background }
        public let kind: Kind
        /// The image's plain path, relative to the site's root.
        public let image: String
        /// `<img>`: the byte offset of its tag; a background: its layer's element.
        public let at: String
        public let fetches: [Fetch]
    }

    /// Bytes summed over images (of a page) or pages (of the site), at one profile.
    public struct Total: Sendable, Codable, Equatable {
        public let profile: String
        public var before = 0
        public var after = 0
        public var legacy = 0

        public init(profile: String) { self.profile = profile }
    }

    public struct Page: Sendable, Codable, Equatable {
        public let path: String
        public let images: [Occurrence]
        public let totals: [Total]
    }

    public let profiles: [ViewingProfile]
    /// Measured pages with at least one image dppx built, by path.
    public let pages: [Page]
    /// Summed over `pages`, one per profile.
    public let totals: [Total]
    /// The formats the after files are in, most bytes first.
    public let afterFormats: [ImageFormat]
    /// The formats the legacy files are in, most bytes first.
    public let legacyFormats: [ImageFormat]

    /// The site's cost per page view. `images`: the manifests' images by plain path (relative
    /// to the root, as `SiteManifests.images` has them). `fileBytes`: the size of plain files
    /// that are not a variant (a master built in place). `resolve`: an `<img>`'s `src` on a page
    /// as a path relative to the root, nil when it is not the site's file. `picture`: whether
    /// the pages' images are offered in a `<picture>`.
    public init(layout: LayoutFile, images: [String: Manifest.Image], fileBytes: [String: Int], picture: Bool,
                profiles: [ViewingProfile] = ViewingProfile.standard,
                resolve: (_ page: String, _ src: String) -> String?) {
        self.profiles = profiles
        var pages: [Page] = []
        var totals = profiles.map { Total(profile: $0.name) }
        var afterFormats: [ImageFormat: Int] = [:], legacyFormats: [ImageFormat: Int] = [:]
        for (path, page) in layout.pages.sorted(by: { $0.key < $1.key }) {
            let rewritten = page.restored == nil
            var occurrences: [Occurrence] = []
            for image in page.images {
                guard let plain = resolve(path, image.src), let built = images[plain] else { continue }
                // Where it is hidden, the width its sizes says there (the nearest shown one).
                let samples = BoxSample.filledWhereHidden(image.boxSamples).map { (viewport: $0.viewport, width: $0.width) }
                if let occurrence = Self.occurrence(.img, built, plain: plain, at: String(image.offset), samples: samples,
                                                    fileBytes: fileBytes, profiles: profiles,
                                                    choice: rewritten && image.unsized == nil ? .srcset(picture: picture && image.unwrapped == nil) : .plain) {
                    occurrences.append(occurrence)
                }
            }
            for background in page.backgrounds {
                guard background.url.hasPrefix("/") else { continue }
                let plain = String(background.url.drop { $0 == "/" })
                guard let built = images[plain] else { continue }
                let samples = background.samples.map { (viewport: $0.viewport, width: $0.paintedWidth) }
                if let occurrence = Self.occurrence(.background, built, plain: plain, at: "\(background.element) layer \(background.layer)",
                                                    samples: samples, fileBytes: fileBytes, profiles: profiles,
                                                    choice: rewritten ? .imageSet : .plain) {
                    occurrences.append(occurrence)
                }
            }
            guard !occurrences.isEmpty else { continue }
            var pageTotals = profiles.map { Total(profile: $0.name) }
            for occurrence in occurrences {
                for (index, fetch) in occurrence.fetches.enumerated() {
                    pageTotals[index].before += fetch.before.bytes
                    pageTotals[index].after += fetch.after.bytes
                    pageTotals[index].legacy += fetch.legacy.bytes
                    if let format = Self.format(of: fetch.after.path) { afterFormats[format, default: 0] += fetch.after.bytes }
                    if let format = Self.format(of: fetch.legacy.path) { legacyFormats[format, default: 0] += fetch.legacy.bytes }
                }
            }
            for index in totals.indices {
                totals[index].before += pageTotals[index].before
                totals[index].after += pageTotals[index].after
                totals[index].legacy += pageTotals[index].legacy
            }
            pages.append(Page(path: path, images: occurrences, totals: pageTotals))
        }
        self.pages = pages
        self.totals = totals
        func ranked(_ bytes: [ImageFormat: Int]) -> [ImageFormat] {
            bytes.sorted { ($0.value, $1.key.rawValue) > ($1.value, $0.key.rawValue) }.map(\.key)
        }
        self.afterFormats = ranked(afterFormats)
        self.legacyFormats = ranked(legacyFormats)
    }

    /// How the rewritten page offers an image.
    enum Choice {
        /// `srcset` on an `<img>`, in a `<picture>` with a `<source>` per extra format or not.
        case srcset(picture: Bool)
        /// `image-set()` with `type()`, extra formats first.
        case imageSet
        /// Nothing: the plain file, as before.
        case plain
    }

    /// A candidate's file and its density for the box it is drawn in.
    struct Option {
        let file: File
        let density: Double
    }

    private static func occurrence(_ kind: Occurrence.Kind, _ image: Manifest.Image, plain: String, at: String,
                                   samples: [(viewport: Double, width: Double)], fileBytes: [String: Int],
                                   profiles: [ViewingProfile], choice: Choice) -> Occurrence? {
        guard !image.densityIndependent, !samples.isEmpty,
              let plainBytes = image.variants.first(where: { $0.path == plain })?.bytes ?? fileBytes[plain] else { return nil }
        let before = File(path: plain, bytes: plainBytes)
        let candidates = ImageCandidates(image: image, urls: .relative(""))
        func files(_ list: [ImageCandidates.Candidate]) -> [(file: File, width: Int)] {
            list.compactMap { candidate in
                image.variants.first { $0.format == candidate.format && $0.density == candidate.density && $0.width == candidate.width }
                    .map { (File(path: $0.path, bytes: $0.bytes), $0.width) }
            }
        }
        let primary = files(candidates.primary)
        let extra = candidates.extra.first.map { files($0.candidates) } ?? primary
        let fetches = profiles.map { profile -> Fetch in
            let width = box(at: profile.width, in: samples)
            func pick(_ list: [(file: File, width: Int)], imageSet: Bool) -> File {
                // x descriptors: the file's width over the CSS width; w descriptors: over the box.
                let across = image.isFluid ? width : Double(image.width)
                let options = list.map { Option(file: $0.file, density: across > 0 ? Double($0.width) / across : .infinity) }
                    .sorted { $0.density < $1.density }
                guard !options.isEmpty else { return before }
                return imageSet ? imageSetChoice(options, dpr: profile.dpr) : srcsetChoice(options, dpr: profile.dpr)
            }
            // An image of one file has nothing to choose from: the rewrite leaves it as it is.
            switch primary.count > 1 ? choice : .plain {
            case .plain:
                return Fetch(profile: profile.name, width: width, before: before, after: before, legacy: before)
            case .srcset(let picture):
                let legacy = pick(primary, imageSet: false)
                return Fetch(profile: profile.name, width: width, before: before, after: picture ? pick(extra, imageSet: false) : legacy, legacy: legacy)
            case .imageSet:
                // A fluid background's files are chosen for its painted width, as a w-described image's are.
                return Fetch(profile: profile.name, width: width, before: before,
                             after: pick(extra, imageSet: !image.isFluid), legacy: pick(primary, imageSet: !image.isFluid))
            }
        }
        return Occurrence(kind: kind, image: plain, at: at, fetches: fetches)
    }

    /// The width measured at the widest viewport at or below `viewport` (the narrowest when all
    /// are wider).
    static func box(at viewport: Double, in samples: [(viewport: Double, width: Double)]) -> Double {
        let sorted = samples.sorted { $0.viewport < $1.viewport }
        return (sorted.last { $0.viewport <= viewport } ?? sorted[0]).width
    }

    /// Blink's `srcset` selection (`SelectionLogic` in html_srcset_parser.cc): over candidates
    /// ascending by density, the first whose next candidate reaches the DPR, where the next one
    /// wins when the DPR is at or above the two densities' geometric mean (or, at DPR 1 or below,
    /// whenever the current one is under it); the densest when none reaches it.
    static func srcsetChoice(_ options: [Option], dpr: Double) -> File {
        var index = 0
        while index < options.count - 1 {
            let next = options[index + 1].density
            if next < dpr {
                index += 1
                continue
            }
            let current = options[index].density
            if (dpr <= 1 && dpr > current) || dpr >= (current * next).squareRoot() { return options[index + 1].file }
            break
        }
        return options[index].file
    }

    /// `image-set()`: the smallest resolution at or above the DPR, else the largest.
    static func imageSetChoice(_ options: [Option], dpr: Double) -> File {
        (options.first { $0.density >= dpr } ?? options[options.count - 1]).file
    }

    private static func format(of path: String) -> ImageFormat? {
        guard let dot = path.lastIndex(of: ".") else { return nil }
        return ImageFormat(fileExtension: path[path.index(after: dot)...])
    }
}
