import DPPXCore
import DPPXRewrite

/// The widths each master's measured boxes need: every width a page draws the master's plain
/// file at (an `<img>`'s box, a background's painted width, at every measured viewport) made
/// into a `MeasuredLadder`, by the master's path relative to SRC. What `dppx build` builds a
/// fluid master at when its pages were measured (`PlanSettings.measuredWidths`).
public enum LayoutLadders {
    /// `images`: the site's images (relative to the root) as the build will write them;
    /// `rewriter` resolves an `<img>`'s `src` on its page as the rewrite will.
    public static func widths(layout: LayoutFile, images: SiteImages, rewriter: PageRewriter) -> [String: [Int]] {
        var boxes: [String: (masterWidth: Int, widths: [Double])] = [:]
        func add(_ path: String?, _ widths: [Double]) {
            guard let path, let match = images.match(path), match.isPlainPath, match.entry.image.isFluid else { return }
            boxes[match.entry.source, default: (match.entry.image.width, [])].widths += widths.filter { $0 > 0 }
        }
        for (page, measured) in layout.pages {
            for image in measured.images {
                add(rewriter.imagePath(of: image.src, onPage: page), image.samples.map(\.width))
            }
            for layer in measured.backgrounds where layer.url.hasPrefix("/") {
                add(String(layer.url.dropFirst()), layer.samples.map(\.paintedWidth))
            }
        }
        return boxes.compactMapValues { box in
            box.widths.isEmpty ? nil : MeasuredLadder(masterWidth: box.masterWidth, boxWidths: box.widths).widths
        }
    }
}
