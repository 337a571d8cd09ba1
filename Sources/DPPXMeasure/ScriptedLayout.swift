import DPPXCore

/// Whether a page's scripts size its boxes, so each width must be measured after the page has
/// settled there rather than in one synchronous sweep.
///
/// The sweep resizes the page's frame to every width in one call: fast (1.4 ms a width), but
/// no resize handler, `ResizeObserver` or `matchMedia` listener of the page runs in between, so a
/// slider that sets each slide to the container's width (Slick, Swiper, Flickity) is read at its
/// load width everywhere. A page with scripts is measured again at `probeWidths` after settling
/// at each (two frames, a quiet DOM, images loaded); where a box's size differs from the sweep's,
/// the page is sized by script and every width is measured settled.
enum ScriptedLayout {
    /// Whether the page has a `<script>` element or an inline event handler attribute: a page
    /// without either cannot change its layout on resize (CSS alone gives the sweep's boxes).
    static func hasScripts(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self).lowercased()
        return text.contains("<script") || text.contains(" onresize=") || text.contains(" onload=")
    }

    /// Where a page with scripts is measured settled to compare with the sweep: the widths of
    /// the sweep's ladder nearest a phone's and a laptop's (the page loaded at the ladder's
    /// lowest width, where a script sized it, so a box it sizes differs at both). Two, as each
    /// waits for a quiet DOM.
    static func probeWidths(in ladder: ViewportLadder) -> [Int] {
        let coarse = ladder.coarse
        let wanted = [375, 1280].compactMap { target in coarse.min { abs($0 - target) < abs($1 - target) } }
        return Array(Set(wanted)).sorted()
    }

    /// Whether some `<img>` box or painted background at one of `viewports` has another size
    /// settled than swept (more than `LayoutComparison.tolerance`): positions are not compared
    /// (an autoplaying carousel moves its slides between any two reads).
    static func differs(swept: Samples, settled: Samples, at viewports: [Int]) -> Bool {
        let wanted = Set(viewports.map(Double.init))
        func far(_ a: Double, _ b: Double) -> Bool { abs(a - b) > LayoutComparison.tolerance }
        let sweptImages = Dictionary(swept.images.map { ($0.offset, $0.samples) }, uniquingKeysWith: { a, _ in a })
        for image in settled.images {
            guard let other = sweptImages[image.offset] else { return true }
            let before = Dictionary(other.map { ($0.viewport, $0) }, uniquingKeysWith: { a, _ in a })
            for sample in image.samples where wanted.contains(sample.viewport) {
                guard let then = before[sample.viewport] else { return true }
                if far(then.width, sample.width) || far(then.height, sample.height) { return true }
            }
        }
        let sweptLayers = Dictionary(swept.backgrounds.map { ("\($0.layer) \($0.element)", $0.samples) }, uniquingKeysWith: { a, b in a + b })
        for layer in settled.backgrounds {
            let before = Dictionary((sweptLayers["\(layer.layer) \(layer.element)"] ?? []).map { ($0.viewport, $0) }, uniquingKeysWith: { a, _ in a })
            for sample in layer.samples where wanted.contains(sample.viewport) {
                guard let then = before[sample.viewport] else { return true }
                if far(then.paintedWidth, sample.paintedWidth) || far(then.paintedHeight, sample.paintedHeight) { return true }
            }
        }
        return false
    }
}

