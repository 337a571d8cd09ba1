/// An extra-format output (WebP, AVIF) with an `auto` quality that a build did not write
/// because no quality of its format reached its density's target, while the master-format file
/// of that density did: browsers that take the extra format would get a worse picture (and,
/// written at quality 100, usually more bytes). Lossy WebP at 1x is the usual case: it is
/// always 4:2:0, and on flat graphics with saturated colour edges even quality 100, converted
/// sharp, can stay under 80.
public struct UnderTargetFile: Codable, Sendable, Hashable {
    /// The file left out, relative to OUT: `hero.webp`.
    public let path: String
    /// Its best score (at the top quality) and the target it missed.
    public let score: Double
    public let target: Double
    /// The master-format file of the same density or width, which reaches it: `hero.jpg`.
    public let replaces: String

    public init(path: String, score: Double, target: Double, replaces: String) {
        self.path = path
        self.score = (score * 100).rounded() / 100
        self.target = target
        self.replaces = replaces
    }
}
