/// The widths to build a master at, from the boxes the site was measured to draw it in.
///
/// Each box needs a file as wide as the box times each density dppx serves (1, 1.5 and 2; 3
/// where the master has the pixels for it): those are the needs, one per measured viewport and
/// density. A browser takes the narrowest file at least as wide as a need, so a ladder costs,
/// over the needs, the bytes of the rung that serves each (bytes taken as proportional to
/// pixels, so to the width squared). The ladder is the fewest rungs, at most `maximumRungs`,
/// whose bytes over the needs are within `byteBudget` of files made to each need exactly,
/// chosen to send the fewest bytes (an exact search over the needs' widths), with no need served
/// by a file more than `widestStretch` times as wide as it. Cloudinary's breakpoint generator
/// steps by bytes and caps at 20 files; measured needs cluster (a full-width image's 1x, 1.5x and
/// 2x needs overlap across viewports), so a handful of rungs serves them within a few per cent:
/// a 1600 px master shown full width from 320 to 2560 px gets 6 files, where a rung every 7 % of
/// width took 25. What the cap costs is `byteRatio`, which the build reports.
///
/// Needs wider than the master are the master (a wider file would only be upscaled), and the
/// master's own width is always the top rung: it is the plain file, named by the page's
/// original markup and shown by every browser that reads no `srcset`.
public struct MeasuredLadder: Hashable, Sendable {
    /// Ascending, without repeats, the last the master's width.
    public let widths: [Int]
    /// The bytes the ladder sends over the measured needs, over the bytes of files made to
    /// each need (1.06: 6 % more); 1 without needs.
    public let byteRatio: Double
    /// The bytes of files made to each need, in square pixels (a file's bytes taken as
    /// proportional to its pixels): what `byteRatio`s of several ladders are weighed by.
    public let neededBytes: Double

    /// The densities each box is served at.
    public static let densities: [Double] = [1, 1.5, 2, 3]
    /// The most rungs a ladder has, the master's included.
    public static let maximumRungs = 10
    /// The fewest rungs whose bytes come within this of exact files are enough.
    public static let byteBudget = 1.10
    /// No need is served by a file wider than this many times the need (2.25 times its bytes),
    /// where `maximumRungs` rungs can keep to it.
    public static let widestStretch = 1.5

    /// The ladder for `boxWidths` (CSS px, every box any page draws the master in, at every
    /// measured viewport) of a master `masterWidth` pixels wide.
    public init(masterWidth: Int, boxWidths: [Double]) {
        let top = max(1, masterWidth)
        var weights: [Int: Double] = [top: 0]
        for box in boxWidths where box.isFinite && box > 0 {
            for density in Self.densities {
                let need = (box * density - 0.01).rounded(.up)
                guard need < Double(top) else {
                    // The master is the widest file there is; a 3x need it cannot meet is left
                    // to the 2x rung rather than ask every box for the master.
                    if density < 3 { weights[top, default: 0] += 1 }
                    continue
                }
                weights[max(1, Int(need)), default: 0] += 1
            }
        }
        let needs = Self.grouped(weights.keys.sorted().map { (width: $0, weight: weights[$0]!) })
        let exact = needs.reduce(0.0) { $0 + $1.weight * Double($1.width) * Double($1.width) }
        let best = Self.cheapest(needs, stretch: Self.widestStretch) ?? Self.cheapest(needs, stretch: nil)!
        widths = best.rungs
        byteRatio = exact > 0 ? best.cost / exact : 1
        neededBytes = exact
    }

    /// Needs within 1 % of width of each other are one, at the widest of them (so served by a
    /// rung that serves them all), when there are more than 400: the search is quadratic in them.
    private static func grouped(_ needs: [(width: Int, weight: Double)]) -> [(width: Int, weight: Double)] {
        guard needs.count > 400 else { return needs }
        var groups: [(width: Int, weight: Double)] = []
        var start = 0
        for (index, need) in needs.enumerated() {
            if let last = groups.last, Double(need.width) <= Double(needs[start].width) * 1.01 {
                groups[groups.count - 1] = (need.width, last.weight + need.weight)
            } else {
                groups.append(need)
                start = index
            }
        }
        return groups
    }

    /// The rungs (widths among `needs`, the last always a rung) that serve every need at the
    /// fewest bytes, for the fewest rungs within `byteBudget` (else the cheapest at
    /// `maximumRungs`), each serving needs no narrower than its width over `stretch`; nil
    /// when no ladder of `maximumRungs` rungs keeps to the stretch.
    private static func cheapest(_ needs: [(width: Int, weight: Double)], stretch: Double?) -> (rungs: [Int], cost: Double)? {
        let count = needs.count
        guard count > 0 else { return nil }
        var weightBefore = [0.0]
        for need in needs { weightBefore.append(weightBefore.last! + need.weight) }
        let exact = needs.reduce(0.0) { $0 + $1.weight * Double($1.width) * Double($1.width) }
        // The needs after the rung at `previous` (-1: none) up to the one at `rung`, served by it.
        func segment(after previous: Int, to rung: Int) -> Double? {
            let width = Double(needs[rung].width)
            if let stretch, width > Double(needs[previous + 1].width) * stretch { return nil }
            return width * width * (weightBefore[rung + 1] - weightBefore[previous + 1])
        }
        // cost[j]: the fewest bytes serving needs 0...j with the rungs so far, the last at j.
        var cost = (0..<count).map { segment(after: -1, to: $0) ?? .infinity }
        var choices: [[Int]] = [Array(repeating: -1, count: count)]
        var found: (rungs: Int, cost: Double)?
        for rungs in 1...maximumRungs {
            if cost[count - 1] < .infinity, found == nil || cost[count - 1] < found!.cost {
                found = (rungs, cost[count - 1])
                if cost[count - 1] <= exact * byteBudget { break }
            }
            guard rungs < min(maximumRungs, count) else { break }
            var next = Array(repeating: Double.infinity, count: count)
            var choice = Array(repeating: -1, count: count)
            for rung in rungs..<count {
                for previous in (rungs - 1)..<rung where cost[previous] < .infinity {
                    guard let added = segment(after: previous, to: rung) else { continue }
                    if cost[previous] + added < next[rung] {
                        next[rung] = cost[previous] + added
                        choice[rung] = previous
                    }
                }
            }
            cost = next
            choices.append(choice)
        }
        guard let found else { return nil }
        var rungs: [Int] = []
        var at = count - 1
        for level in stride(from: found.rungs - 1, through: 0, by: -1) {
            rungs.append(needs[at].width)
            at = choices[level][at]
            if at < 0 { break }
        }
        return (rungs.reversed(), found.cost)
    }
}
