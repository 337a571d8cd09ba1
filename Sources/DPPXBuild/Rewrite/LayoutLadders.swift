import DPPXCore
import DPPXRewrite

/// The widths each master's measured boxes need: every width a page draws the master's plain
/// file at (the width an `<img>`'s content is painted at, its box's unless its `object-fit`
/// paints it otherwise; a background's painted width; at every measured viewport) made
/// into a `MeasuredLadder`, by the master's path relative to SRC. What `dppx build` builds a
/// fluid master at when its pages were measured (`PlanSettings.measuredWidths`).
public enum LayoutLadders {
    /// `images`: the site's images (relative to the root) as the build will write them;
    /// `rewriter` resolves an `<img>`'s `src` on its page as the rewrite will.
    public static func widths(layout: LayoutFile, images: SiteImages, rewriter: PageRewriter) -> [String: [Int]] {
        ladders(layout: layout, images: images, rewriter: rewriter).mapValues(\.widths)
    }

    /// The ladders themselves, with what each costs over files made to each need.
    public static func ladders(layout: LayoutFile, images: SiteImages, rewriter: PageRewriter) -> [String: MeasuredLadder] {
        var boxes: [String: (masterWidth: Int, widths: [Double])] = [:]
        func add(_ path: String?, _ widths: [Double]) {
            guard let path, let match = images.match(path), match.isPlainPath, match.entry.image.isFluid else { return }
            boxes[match.entry.source, default: (match.entry.image.width, [])].widths += widths.filter { $0 > 0 }
        }
        for (page, measured) in layout.pages {
            for image in measured.images {
                // Where it is hidden, the width its sizes fetches a file for there.
                add(rewriter.imagePath(of: image.src, onPage: page), BoxSample.filledWhereHidden(image.boxSamples).map(\.width))
            }
            for layer in measured.backgrounds where layer.url.hasPrefix("/") {
                add(String(layer.url.dropFirst()), layer.samples.map(\.paintedWidth))
            }
        }
        return boxes.compactMapValues { box in
            box.widths.isEmpty ? nil : MeasuredLadder(masterWidth: box.masterWidth, boxWidths: box.widths)
        }
    }
}

extension LayoutLadders {
    /// What the measured ladders of a build cost, for the line that says so.
    public struct Summary: Sendable, Equatable {
        public var masters: Int
        public var files: Int
        /// The bytes they send over the measured needs, over files made to each need.
        public var byteRatio: Double

        /// Of `ladders`; nil when there are none.
        public init?(_ ladders: [MeasuredLadder]) {
            guard !ladders.isEmpty else { return nil }
            masters = ladders.count
            files = ladders.reduce(0) { $0 + $1.widths.count }
            let needed = ladders.reduce(0.0) { $0 + $1.neededBytes }
            byteRatio = needed > 0 ? ladders.reduce(0.0) { $0 + $1.byteRatio * $1.neededBytes } / needed : 1
        }

        /// `5 masters at their measured widths, 27 files, sending 6 % more image bytes than files made to each box would`.
        public var description: String {
            let percent = Int(((byteRatio - 1) * 100).rounded())
            return "\(masters) master\(masters == 1 ? "" : "s") at \(masters == 1 ? "its" : "their") measured widths, \(files) file\(files == 1 ? "" : "s") a format, sending \(percent) % more image bytes than files made to each box and density would"
        }
    }
}
