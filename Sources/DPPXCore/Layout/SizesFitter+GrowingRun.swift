extension SizesFitter {
    /// A run of samples, viewports ascending, that grows one sample at a time, and answers
    /// `line(through:)` for what it holds in O(log n) rather than O(n): the sums the candidate
    /// lengths are made from are kept as samples come, and whether a candidate is within
    /// `fitTolerance` of every sample is asked of the samples' convex hull. A line's farthest
    /// samples above and below it are vertices of the upper and lower hull, found by the hull's
    /// edge slopes (a binary search), and the same check as `line(through:)`'s is made there.
    struct GrowingRun {
        private(set) var count = 0
        private var first: BoxSample?
        private var last: BoxSample?
        private var lowWidth = Double.infinity, highWidth = -Double.infinity
        private var lowRatio = Double.infinity, highRatio = -Double.infinity
        private var everyViewportPositive = true
        private var sumX = 0.0, sumY = 0.0
        /// Sums about the first sample, where they stay small and exact for whole-pixel viewports.
        private var shiftedX = 0.0, shiftedY = 0.0, shiftedXX = 0.0, shiftedXY = 0.0
        private var upper: [BoxSample] = []
        private var lower: [BoxSample] = []

        /// Adds a sample whose viewport is greater than every one held.
        mutating func add(_ sample: BoxSample) {
            if first == nil { first = sample }
            last = sample
            count += 1
            lowWidth = min(lowWidth, sample.width)
            highWidth = max(highWidth, sample.width)
            if sample.viewport > 0 {
                let ratio = sample.width / sample.viewport * 100
                lowRatio = min(lowRatio, ratio)
                highRatio = max(highRatio, ratio)
            } else {
                everyViewportPositive = false
            }
            sumX += sample.viewport
            sumY += sample.width
            let x = sample.viewport - first!.viewport, y = sample.width - first!.width
            shiftedX += x
            shiftedY += y
            shiftedXX += x * x
            shiftedXY += x * y
            Self.push(sample, onto: &upper, keepingTurn: { $0 < 0 })
            Self.push(sample, onto: &lower, keepingTurn: { $0 > 0 })
        }

        /// `SizesFitter.line(through:)` of the samples held.
        func line() -> SizesLength? {
            guard count > 0 else { return nil }
            if highWidth - lowWidth <= 2 * SizesFitter.fitTolerance {
                return SizesLength(pixels: (lowWidth + highWidth) / 2)
            }
            return [proportional, leastSquares, throughEnds].compactMap { $0 }.first(where: fits)
        }

        private var proportional: SizesLength? {
            guard everyViewportPositive, lowRatio.isFinite, highRatio.isFinite else { return nil }
            return SizesLength(perViewport: (lowRatio + highRatio) / 2)
        }

        private var leastSquares: SizesLength? {
            let n = Double(count)
            let spread = shiftedXX - shiftedX * shiftedX / n
            guard spread > 0 else { return nil }
            let slope = (shiftedXY - shiftedX * shiftedY / n) / spread
            return SizesLength(perViewport: slope * 100, pixels: sumY / n - slope * sumX / n)
        }

        private var throughEnds: SizesLength? {
            guard let first, let last, last.viewport > first.viewport else { return nil }
            let slope = (last.width - first.width) / (last.viewport - first.viewport)
            return SizesLength(perViewport: slope * 100, pixels: first.width - slope * first.viewport)
        }

        /// Whether `length` as written is within `fitTolerance` of every sample held: of the
        /// hull's vertices farthest above and below it (and their neighbours, against rounding).
        private func fits(_ length: SizesLength) -> Bool {
            let written = length.asWritten
            let slope = written.perViewport / 100
            func close(_ sample: BoxSample) -> Bool {
                abs(written.width(atViewport: sample.viewport) - sample.width) <= SizesFitter.fitTolerance
            }
            // Upper hull: edge slopes descending; y - slope x grows while the edge is steeper.
            let top = Self.firstEdge(of: upper) { $0 <= slope }
            // Lower hull: edge slopes ascending; y - slope x falls while the edge is shallower.
            let bottom = Self.firstEdge(of: lower) { $0 >= slope }
            for (hull, vertex) in [(upper, top), (lower, bottom)] {
                for index in max(0, vertex - 1)...min(hull.count - 1, vertex + 1) where !close(hull[index]) { return false }
            }
            return true
        }

        /// The first vertex of `hull` whose outgoing edge's slope satisfies `done` (slopes
        /// monotone along the hull), or the last vertex.
        private static func firstEdge(of hull: [BoxSample], where done: (Double) -> Bool) -> Int {
            var low = 0, high = hull.count - 1
            while low < high {
                let middle = (low + high) / 2
                let a = hull[middle], b = hull[middle + 1]
                if done((b.width - a.width) / (b.viewport - a.viewport)) { high = middle } else { low = middle + 1 }
            }
            return low
        }

        /// Andrew's monotone chain: appends `sample`, dropping the vertices it makes no longer
        /// turn the hull's way (`keepingTurn` of the cross product).
        private static func push(_ sample: BoxSample, onto hull: inout [BoxSample], keepingTurn: (Double) -> Bool) {
            while hull.count >= 2 {
                let o = hull[hull.count - 2], a = hull[hull.count - 1]
                let cross = (a.viewport - o.viewport) * (sample.width - o.width) - (a.width - o.width) * (sample.viewport - o.viewport)
                if keepingTurn(cross) { break }
                hull.removeLast()
            }
            hull.append(sample)
        }
    }
}
