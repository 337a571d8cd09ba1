import DPPXCore

/// One measured page in the inspector's "What a page view costs" table: its bytes before and
/// after on each screen (`PageViewCost`), and the same as a small bar chart in inline SVG, each
/// screen a grey bar (before) beside a green one (after), all pages on one scale.
struct PageViewRow {
    struct Cell {
        let profile: String
        let before: String
        let after: String
        /// `-87 %`; empty when nothing was there before.
        let change: String
    }

    let page: String
    let cells: [Cell]
    /// `<svg ...>`: made here from numbers and profile names only, written unescaped.
    let chart: String

    /// The rows of `cost`, one per page, on one scale.
    static func rows(_ cost: PageViewCost) -> [PageViewRow] {
        let largest = max(1, cost.pages.flatMap(\.totals).map { max($0.before, $0.after) }.max() ?? 1)
        return cost.pages.map { page in
            PageViewRow(page: page.path, cells: page.totals.map(cell), chart: chart(page.totals, largest: largest))
        }
    }

    /// The site's totals: every page viewed once, on its own scale.
    static func total(_ cost: PageViewCost) -> PageViewRow {
        let largest = max(1, cost.totals.map { max($0.before, $0.after) }.max() ?? 1)
        return PageViewRow(page: "all \(cost.pages.count) pages", cells: cost.totals.map(cell), chart: chart(cost.totals, largest: largest))
    }

    static func cell(_ total: PageViewCost.Total) -> Cell {
        let change = total.before > 0 ? Int((Double(total.after - total.before) * 100 / Double(total.before)).rounded()) : nil
        return Cell(profile: total.profile, before: InspectorView.humanSize(total.before), after: InspectorView.humanSize(total.after),
                    change: change.map { "\($0 > 0 ? "+" : "")\($0) %" } ?? "")
    }

    /// Bars 10 px wide, 32 px at `largest` bytes, a pair per screen, its name beneath.
    static func chart(_ totals: [PageViewCost.Total], largest: Int) -> String {
        let barWidth = 10, height = 32, pair = 2 * barWidth + 14
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(pair * totals.count)\" height=\"\(height + 14)\" role=\"img\" aria-label=\"image bytes before and after, per screen\">"
        for (index, total) in totals.enumerated() {
            let x = index * pair
            for (offset, bytes, colour, label) in [(0, total.before, "#b9b9c3", "before"), (barWidth, total.after, "#2e9e4f", "after")] {
                let bar = max(1, Int((Double(bytes) / Double(largest) * Double(height)).rounded()))
                svg += "<rect x=\"\(x + offset)\" y=\"\(height - bar)\" width=\"\(barWidth)\" height=\"\(bar)\" fill=\"\(colour)\">"
                svg += "<title>\(total.profile) \(label): \(InspectorView.humanSize(bytes))</title></rect>"
            }
            svg += "<text x=\"\(x + barWidth)\" y=\"\(height + 12)\" font-size=\"10\" text-anchor=\"middle\" fill=\"#666\">\(total.profile)</text>"
        }
        return svg + "</svg>"
    }
}
