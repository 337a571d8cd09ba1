/// The viewport widths a page is measured at.
///
/// A coarse ladder from 320 to 2560 CSS px in 40 px steps (57 widths) finds every piece of a
/// layout at least 80 px wide (a piece needs two samples on its line), which every framework's
/// breakpoints are (Bootstrap's closest are 192 px apart), at a few milliseconds a width. Then
/// `SizesFitter.refinements(of:)` bisects each gap where a box's width may change slope, per
/// occurrence, until every breakpoint is pinned to 1 px: about six rounds from 40 px, bounded
/// by `maximumRounds`.
public struct ViewportLadder: Hashable, Sendable, CustomStringConvertible {
    public var lowest = 320
    public var highest = 2560
    public var step = 40
    /// The viewport's height, fixed while the width moves: `vh` boxes depend on it.
    public var height = 800
    /// How many rounds of refinement at most.
    public var maximumRounds = 8
    /// How close a breakpoint is pinned, CSS px.
    public var resolution = 1.0

    public init() {}

    /// The coarse widths.
    public var coarse: [Int] { Array(stride(from: lowest, through: highest, by: step)) }

    /// The widths a rewrite is checked at: every other coarse width (29), each measured once the
    /// page has settled there, on both sides of the comparison. A box that moves does so over a
    /// whole piece of the layout, and every framework's pieces are wider than this step.
    public var checking: [Int] { Array(stride(from: lowest, through: highest, by: 2 * step)) }

    /// What the measurements depend on, in the layout file's hash.
    public var description: String { "\(lowest)-\(highest)/\(step) height \(height) rounds \(maximumRounds) resolution \(resolution)" }
}
