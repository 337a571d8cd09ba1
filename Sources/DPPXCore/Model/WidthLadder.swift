/// The widths a fluid image is written at, ascending, always ending at the master's own width.
///
/// No width is above the master's (a wider file would only be an upscaled, blurry copy), and
/// the master's width is always the top rung: a screen wider than every listed width still gets
/// every pixel there is.
///
/// The automatic ladder steps down from the master's width so that neighbouring files differ
/// by about `autoByteRatio` in bytes, estimating a file's bytes as proportional to its pixel
/// count (at a fixed aspect ratio, to the square of its width): each width is the one above
/// divided by √`autoByteRatio`, and the ladder stops before going under `autoMinimumWidth`.
/// So no two variants are nearly the same file, and a browser picking the smallest width at
/// least as wide as it needs never fetches more than about `autoByteRatio` times the bytes it
/// must.
public struct WidthLadder: Hashable, Sendable {
    /// Ascending, without repeats, the last the master's width.
    public let widths: [Int]
    /// Listed widths left out because they are above the master's, ascending.
    public let skipped: [Int]

    /// Neighbouring files of the automatic ladder differ by about this ratio in bytes.
    public static let autoByteRatio = 1.8
    /// The automatic ladder's smallest width: a phone's layout viewport at DPR 1.
    public static let autoMinimumWidth = 320

    /// The ladder `request` gives for a master `masterWidth` pixels wide.
    public init(masterWidth: Int, request: WidthRequest) {
        let top = max(1, masterWidth)
        switch request {
        case .explicit(let listed):
            let sorted = Set(listed.filter { $0 > 0 }).sorted()
            widths = sorted.filter { $0 < top } + [top]
            skipped = sorted.filter { $0 > top }
        case .auto:
            let step = Self.autoByteRatio.squareRoot()
            var ladder = [top]
            while true {
                let next = Int((Double(ladder[0]) / step).rounded())
                guard next >= Self.autoMinimumWidth, next < ladder[0] else { break }
                ladder.insert(next, at: 0)
            }
            widths = ladder
            skipped = []
        }
    }

    /// The pixel size of the rung `width` wide of a `master`-sized image: the height follows
    /// the aspect ratio, rounded half up, never below 1.
    public static func size(ofWidth width: Int, master: PixelSize) -> PixelSize {
        guard width != master.width, master.width > 0 else { return PixelSize(width: width, height: master.height) }
        let height = (2 * master.height * width + master.width) / (2 * master.width)
        return PixelSize(width: width, height: max(1, height))
    }
}
