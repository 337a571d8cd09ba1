/// The widths to build a master at, from the boxes the site was measured to draw it in.
///
/// Each box needs a file as wide as the box times each density dppx serves (1, 1.5 and 2; 3
/// where the master has the pixels for it): those are the needs. One file serves every need no
/// wider than itself, and serves it well while it costs at most `byteStep` times the bytes of a
/// file made exactly to the need (bytes taken as proportional to pixels, so to the width
/// squared). The rungs are the fewest widths that serve every need so: walking down from the
/// widest need, each rung is the widest need not yet served. Every need is then served within
/// the step, and no two rungs are within the step of each other: Cloudinary's
/// responsive-breakpoints rule (no rung within 15 % of the bytes of the next), taken from the
/// boxes a page really has rather than from file sizes.
///
/// Needs wider than the master are the master (a wider file would only be upscaled), and the
/// master's own width is always the top rung: it is the plain file, named by the page's
/// original markup and shown by every browser that reads no `srcset`.
public struct MeasuredLadder: Hashable, Sendable {
    /// Ascending, without repeats, the last the master's width.
    public let widths: [Int]

    /// A rung may cost this many times the bytes of a file made exactly for a box it serves.
    public static let byteStep = 1.15
    /// The densities each box is served at.
    public static let densities: [Double] = [1, 1.5, 2, 3]

    /// The ladder for `boxWidths` (CSS px, every box any page draws the master in, at every
    /// measured viewport) of a master `masterWidth` pixels wide.
    public init(masterWidth: Int, boxWidths: [Double]) {
        let top = max(1, masterWidth)
        var needs = Set<Int>()
        for box in boxWidths where box.isFinite && box > 0 {
            for density in Self.densities {
                let need = (box * density - 0.01).rounded(.up)
                guard need < Double(top) else {
                    // The master is the widest file there is; a 3x need it cannot meet is left
                    // to the 2x rung rather than ask every box for the master.
                    if density < 3 { needs.insert(top) }
                    continue
                }
                needs.insert(max(1, Int(need)))
            }
        }
        needs.insert(top)
        // From the widest need down: each rung is the widest need not yet served, and serves
        // every need within the step below it. So every need is served within the step, and the
        // next rung (the widest need below that reach) is more than a step away.
        let descending = needs.sorted(by: >)
        let stretch = Self.byteStep.squareRoot()
        var rungs: [Int] = []
        for need in descending where rungs.last.map({ Double(need) * stretch < Double($0) }) ?? true {
            rungs.append(need)
        }
        rungs.reverse()
        widths = rungs
    }
}
