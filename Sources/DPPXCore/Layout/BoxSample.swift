/// One measurement of an image's box: how wide the page drew it (CSS px) at one viewport width
/// (CSS px, the width `vw` and width media queries are counted against).
///
/// A box is sampled at many viewports; `SizesFitter` turns a page's samples of one occurrence
/// into the `sizes` attribute that gives the same width at each of them.
public struct BoxSample: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The viewport's width, CSS px.
    public var viewport: Double
    /// The box's width at that viewport, CSS px (fractional: layout has sub-pixel widths).
    public var width: Double

    public init(viewport: Double, width: Double) {
        self.viewport = viewport
        self.width = width
    }

    public var description: String { "\(SizesLength.number(width))px at \(SizesLength.number(viewport))px" }

    /// `samples`, in their order, with each one of no width (the image had no box there: a
    /// `display: none` at some widths only, such as a `@media` rule hiding it on phones, that
    /// measuring could not show) given the width of the nearest sample by viewport that has
    /// one, the narrower of two as near; unchanged when none has a width.
    ///
    /// What a `sizes` says where an image is hidden decides only the file a browser fetches
    /// for it there (a `display: none` `<img>` still loads the candidate its `sizes` picks,
    /// unless it is lazy) and its natural width should a script show it there. Zero would make
    /// that natural width 0 px (every candidate's density infinite); the hidden width's own
    /// unknown. The nearest width where it is shown is one the image has: the file fetched is
    /// one a screen of that width shows, never wider than the widest it is shown at, and a
    /// `sizes` there is one constant piece beside the shown ones, whose breakpoint is pinned
    /// like any other.
    public static func filledWhereHidden(_ samples: [BoxSample]) -> [BoxSample] {
        let shown = samples.filter { $0.width > 0 }.sorted { ($0.viewport, $0.width) < ($1.viewport, $1.width) }
        guard !shown.isEmpty, shown.count < samples.count else { return samples }
        return samples.map { sample in
            guard sample.width <= 0 else { return sample }
            // The first shown sample at or past this viewport, and the one before it.
            var low = 0, high = shown.count
            while low < high {
                let middle = (low + high) / 2
                if shown[middle].viewport < sample.viewport { low = middle + 1 } else { high = middle }
            }
            let candidates = [low - 1, low].filter(shown.indices.contains).map { shown[$0] }
            let nearest = candidates.min { a, b in
                let (da, db) = (abs(a.viewport - sample.viewport), abs(b.viewport - sample.viewport))
                return da != db ? da < db : a.width < b.width
            }!
            return BoxSample(viewport: sample.viewport, width: nearest.width)
        }
    }
}
