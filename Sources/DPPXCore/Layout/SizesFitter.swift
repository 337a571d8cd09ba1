/// Turns the widths a page drew one image at, sampled over many viewports, into the `sizes`
/// attribute that gives the browser the same width at each of them.
///
/// With an exact `sizes` a `w`-described image's natural width is its box, so adding `srcset`
/// cannot move the layout, and the browser picks the file the box needs before layout.
///
/// Layouts are piecewise linear in the viewport's width (fixed widths, fractions of the
/// viewport, less gutters), with the pieces meeting at the page's breakpoints. The fitter walks
/// the samples in viewport order and grows each piece while one length (`426px`, `33.3333vw`,
/// `calc(50vw - 24px)`, the simplest that fits) stays within `fitTolerance` of every sample in
/// it; a piece ends where the next sample leaves its line. Between two pieces it writes a
/// `(max-width: …)` just under the next piece's first viewport, as Bootstrap writes its own
/// breakpoints (`767.98px`), so a fractional viewport on the boundary falls on the right side.
///
/// The result is evaluated back from its text at every sample before it is offered: a value
/// more than `tolerance` off anywhere (rounding, an irregular layout) is refused with the sample
/// that failed, and the image is left as the page wrote it.
public struct SizesFitter: Sendable {
    /// How far the written `sizes` may be from a measured box, CSS px.
    public static let tolerance = 0.5
    /// How far a piece's line may be from its samples while fitting: half the tolerance, leaving
    /// the rest for the coefficients' rounding in CSS text.
    public static let fitTolerance = 0.25
    /// More pieces than this are not a layout but a curve (an image sized by script, by its
    /// height in a box that scales, by `vh`): refused rather than written as a long list.
    public static let maximumEntries = 16

    /// What fitting gave.
    public enum Fit: Hashable, Sendable {
        /// The value, checked at every sample.
        case sizes(SizesValue)
        /// No `sizes` of this form gives the measured widths: why, and where.
        case refused(Refusal)
    }

    /// Why a set of samples has no `sizes`.
    public enum Refusal: Error, Hashable, Sendable, CustomStringConvertible {
        /// No samples at all.
        case noSamples
        /// The same viewport gave two widths (a layout that moves on its own: animation, script).
        case unstable(viewport: Double, widths: [Double])
        /// More breakpoints than `maximumEntries`.
        case tooManyPieces(Int)
        /// The written value misses a sample by more than `tolerance`.
        case missed(sample: BoxSample, written: Double?)
        /// It had no box at any viewport (`display: none` that measuring could not show: a
        /// closed dialog, an element a script shows with no sibling of its kind shown beside
        /// it): how wide it is when shown is unknown, and a `sizes` of 0 would draw it 0 px wide
        /// wherever the page lets the natural width decide. The first viewport measured.
        /// (One hidden at some viewports only takes the nearest shown width there:
        /// `BoxSample.filledWhereHidden`.)
        case notDrawn(viewport: Double)

        public var description: String {
            switch self {
            case .noSamples:
                return "it was not measured"
            case .unstable(let viewport, let widths):
                return "its width changed between two measurements at a \(SizesLength.number(viewport)) px viewport (\(widths.map { SizesLength.number($0) + " px" }.joined(separator: ", "))): the layout moves by itself"
            case .tooManyPieces(let count):
                return "its width follows no layout of at most \(SizesFitter.maximumEntries) breakpoints (\(count) pieces)"
            case .notDrawn(let viewport):
                return "it was not displayed at a \(SizesLength.number(viewport)) px viewport nor at any other measured (display: none, as in a closed dialog, or an element a script shows while no sibling of its kind is shown), so how wide it is drawn when shown is unknown"
            case .missed(let sample, let written):
                let got = written.map { "\(SizesLength.number($0)) px" } ?? "nothing"
                return "no sizes of px, vw and calc() gives its \(SizesLength.number(sample.width)) px box at a \(SizesLength.number(sample.viewport)) px viewport (the fit gives \(got))"
            }
        }
    }

    /// A run of samples drawn by one length.
    public struct Piece: Hashable, Sendable {
        public var samples: [BoxSample]
        public var length: SizesLength
    }

    /// The viewport widths (CSS px at the default 16 px font) where the page's own media
    /// queries flip and that it wrote in `em` or `rem` (`@media (width >= 48rem)`): a bound the
    /// fit puts at one of them is written in `em`, so it moves with the page's own breakpoint in
    /// a browser whose default font is larger (20 px makes `48rem` 960 px).
    public var emBreakpoints: [Double]

    public init(emBreakpoints: [Double] = []) {
        self.emBreakpoints = emBreakpoints.filter(\.isFinite)
    }

    /// The `sizes` of an occurrence measured at `samples`.
    public func fit(_ samples: [BoxSample]) -> Fit {
        let ordered: [BoxSample]
        switch Self.ordered(samples) {
        case .success(let value): ordered = value
        case .failure(let refusal): return .refused(refusal)
        }
        let pieces = Self.pieces(of: ordered)
        guard pieces.count <= Self.maximumEntries else { return .refused(.tooManyPieces(pieces.count)) }
        var entries: [SizesValue.Entry] = []
        for (piece, next) in zip(pieces, pieces.dropFirst()) {
            let last = piece.samples.last!.viewport
            let first = next.samples.first!.viewport
            let bound = first - last > 0.04 ? first - 0.02 : last
            // The page's query flips between the two samples: `min-width: W` at `first` = W,
            // `max-width: W` just after `last` = W.
            let inEm = emBreakpoints.contains { $0 >= last - 0.01 && $0 <= first + 0.01 }
            entries.append(SizesValue.Entry(maximumViewport: bound, length: piece.length.asWritten, conditionsInEm: inEm))
        }
        entries.append(SizesValue.Entry(length: pieces.last!.length.asWritten))
        let value = SizesValue(entries: entries)
        // Checked from the text, the way a browser reads it.
        if let miss = Self.firstMiss(of: value.description, at: ordered) {
            return .refused(.missed(sample: miss.sample, written: miss.written))
        }
        return .sizes(value)
    }

    /// The first of `samples` that the `sizes` `text`, read as a browser reads it, does not
    /// give within `tolerance`, with what it gives there; nil when it gives every one. A `sizes`
    /// an earlier run wrote that still holds is kept, so re-measuring after an unrelated edit
    /// does not move its breakpoints by a pixel of measuring jitter.
    public static func firstMiss(of text: String, at samples: [BoxSample]) -> (sample: BoxSample, written: Double?)? {
        let read = SizesValue(parsing: text)
        for sample in BoxSample.filledWhereHidden(samples) {
            let written = read?.width(atViewport: sample.viewport)
            guard let written, abs(written - sample.width) <= tolerance else { return (sample, written) }
        }
        return nil
    }

    /// The viewports to measure next to pin every breakpoint to within `resolution` CSS px:
    /// the middle of each gap wider than that between two measured viewports where the layout
    /// may change. Measuring them and asking again bisects each breakpoint, and finds a piece a
    /// coarse ladder stepped over.
    ///
    /// A gap may hold a change when its two ends fall in different pieces of the fit, or when
    /// neither neighbouring line reaches across it: the line through the two samples before the
    /// gap does not give the sample after it, and the line through the two after does not give
    /// the one before. (A gap both of whose neighbours agree is one line, since layouts change
    /// only at breakpoints; a piece narrower than the coarse step that returns to the same line is
    /// the one thing this misses, which is why the ladder's step is small.) A gap between a
    /// viewport where the image had no box and one where it had one holds where it appears,
    /// which decides the widths written there (`BoxSample.filledWhereHidden`): pinned too.
    public func refinements(of samples: [BoxSample], resolution: Double = 1) -> [Double] {
        guard case .success(let ordered) = Self.ordered(samples), ordered.count > 1 else { return [] }
        let shown = Set(samples.filter { $0.width > 0 }.map(\.viewport))
        let hidden = Set(samples.filter { $0.width <= 0 }.map(\.viewport)).subtracting(shown)
        var pieceOf: [Int] = []
        for (index, piece) in Self.pieces(of: ordered).enumerated() {
            pieceOf += Array(repeating: index, count: piece.samples.count)
        }
        func predicts(_ from: Int, _ through: Int, _ target: Int) -> Bool {
            guard from >= 0, through < ordered.count, from != through else { return false }
            let a = ordered[from], b = ordered[through], t = ordered[target]
            let slope = (b.width - a.width) / (b.viewport - a.viewport)
            return abs(a.width + slope * (t.viewport - a.viewport) - t.width) <= Self.fitTolerance
        }
        var result: [Double] = []
        for left in 0..<(ordered.count - 1) {
            let right = left + 1
            let gap = ordered[right].viewport - ordered[left].viewport
            guard gap > resolution else { continue }
            let split = pieceOf[left] != pieceOf[right]
            let unexplained = !predicts(left - 1, left, right) && !predicts(right, right + 1, left)
            let appears = hidden.contains(ordered[left].viewport) != hidden.contains(ordered[right].viewport)
            if split || unexplained || appears {
                result.append(((ordered[left].viewport + ordered[right].viewport) / 2).rounded(.down))
            }
        }
        return result
    }

    /// Sorted by viewport, one sample a viewport (repeats that agree within the tolerance kept
    /// once), those of no box given the nearest shown width (`BoxSample.filledWhereHidden`).
    static func ordered(_ samples: [BoxSample]) -> Result<[BoxSample], Refusal> {
        guard !samples.isEmpty else { return .failure(.noSamples) }
        let filled = BoxSample.filledWhereHidden(samples)
        if let hidden = filled.filter({ $0.width <= 0 }).min(by: { $0.viewport < $1.viewport }) {
            return .failure(.notDrawn(viewport: hidden.viewport))
        }
        var result: [BoxSample] = []
        for sample in filled.sorted(by: { ($0.viewport, $0.width) < ($1.viewport, $1.width) }) {
            if let last = result.last, last.viewport == sample.viewport {
                if abs(last.width - sample.width) > tolerance {
                    return .failure(.unstable(viewport: sample.viewport, widths: [last.width, sample.width]))
                }
                continue
            }
            result.append(sample)
        }
        return .success(result)
    }

    /// The longest runs, left to right, that one length draws: each run grows one sample at a
    /// time while `line(through:)` finds a length for it. A run's candidates and their check are
    /// kept as it grows (`GrowingRun`), so this is O(n log n) in the samples, not O(n²): a
    /// layout file with 80,000 samples on one line took 40 s the other way.
    static func pieces(of ordered: [BoxSample]) -> [Piece] {
        var pieces: [Piece] = []
        var start = 0
        while start < ordered.count {
            var run = GrowingRun()
            run.add(ordered[start])
            var length = run.line()!
            var end = start
            while end + 1 < ordered.count {
                run.add(ordered[end + 1])
                guard let longer = run.line() else { break }
                end += 1
                length = longer
            }
            pieces.append(Piece(samples: Array(ordered[start...end]), length: length))
            start = end + 1
        }
        return pieces
    }

    /// The simplest length within `fitTolerance` of every sample: a fixed width, else a share of
    /// the viewport, else both; nil when no line is that close.
    static func line(through samples: ArraySlice<BoxSample>) -> SizesLength? {
        let widths = samples.map(\.width)
        let low = widths.min()!, high = widths.max()!
        if high - low <= 2 * fitTolerance {
            return SizesLength(pixels: (low + high) / 2)
        }
        let candidates = [proportional(samples), leastSquares(samples), throughEnds(samples)].compactMap { $0 }
        return candidates.first { length in
            samples.allSatisfy { abs(length.asWritten.width(atViewport: $0.viewport) - $0.width) <= fitTolerance }
        }
    }

    private static func proportional(_ samples: ArraySlice<BoxSample>) -> SizesLength? {
        let ratios = samples.filter { $0.viewport > 0 }.map { $0.width / $0.viewport * 100 }
        guard ratios.count == samples.count, let low = ratios.min(), let high = ratios.max() else { return nil }
        return SizesLength(perViewport: (low + high) / 2)
    }

    private static func leastSquares(_ samples: ArraySlice<BoxSample>) -> SizesLength? {
        let count = Double(samples.count)
        let meanX = samples.reduce(0) { $0 + $1.viewport } / count
        let meanY = samples.reduce(0) { $0 + $1.width } / count
        let spread = samples.reduce(0) { $0 + ($1.viewport - meanX) * ($1.viewport - meanX) }
        guard spread > 0 else { return nil }
        let slope = samples.reduce(0) { $0 + ($1.viewport - meanX) * ($1.width - meanY) } / spread
        return SizesLength(perViewport: slope * 100, pixels: meanY - slope * meanX)
    }

    private static func throughEnds(_ samples: ArraySlice<BoxSample>) -> SizesLength? {
        guard let first = samples.first, let last = samples.last, last.viewport > first.viewport else { return nil }
        let slope = (last.width - first.width) / (last.viewport - first.viewport)
        return SizesLength(perViewport: slope * 100, pixels: first.width - slope * first.viewport)
    }
}
