import DPPXCore

/// The script evaluated once a page has loaded: the viewport widths its stylesheets' media
/// queries name (`(min-width: 768px)`, `(max-width: 767.98px)`, `(width >= 48em)`, in `@media`,
/// `@import` and nested rules; `em` and `rem` count 16 px, as media queries do at the default
/// font), as JSON text: `{"widths": [...], "em": [...]}`, `em` the widths named in `em` or `rem`.
///
/// A layout changes where a media query flips, so measuring on both sides of each such width
/// pins the breakpoint at once, where bisecting from the coarse ladder takes about six rounds
/// of a width each. Breakpoints no query names (a `max-width` container reached, `clamp()`)
/// are still found by bisection.
enum BreakpointScript {
    static let source = #"""
    (() => {
      const widths = new Set(), em = new Set();
      const collect = (text) => {
        for (const match of (text || '').matchAll(/(?:(?:min|max)-width\s*:|width\s*[<>]=?|[<>]=?\s*width)\s*([\d.]+)\s*(px|em|rem)?/g)) {
          const inEm = match[2] === 'em' || match[2] === 'rem';
          const value = parseFloat(match[1]) * (inEm ? 16 : 1);
          if (isFinite(value)) { widths.add(value); if (inEm) em.add(value); }
        }
      };
      const visit = (rules, depth) => {
        if (!rules || depth > 16) return;
        for (const rule of rules) {
          if (rule.media) collect(rule.media.mediaText);
          if (rule.conditionText) collect(rule.conditionText);
          try { if (rule.styleSheet) visit(rule.styleSheet.cssRules, depth + 1); } catch (error) {}
          try { if (rule.cssRules) visit(rule.cssRules, depth + 1); } catch (error) {}
        }
      };
      for (const sheet of document.styleSheets) {
        try { collect(sheet.media && sheet.media.mediaText); visit(sheet.cssRules, 0); } catch (error) {}
      }
      return JSON.stringify({ widths: [...widths], em: [...em] });
    })()
    """#

    /// The most widths read from a page's answer: a page names any number of queries.
    static let maximumWidths = 4096

    /// The page's answer read: the widths its queries name and those named in `em`, each a
    /// finite number of viewport px at most `maximumWidths` of each (a page answers anything).
    static func widths(fromAnswer text: String) -> (named: [Double], em: [Double]) {
        guard let answer = JSONValue(parsing: Array(text.utf8)) else { return ([], []) }
        func numbers(_ key: String) -> [Double] {
            Array((answer[key]?.array ?? []).lazy.compactMap(\.number).filter { $0.isFinite && LayoutLimits.viewports.contains($0) }.prefix(maximumWidths))
        }
        return (numbers("widths"), Array(Set(numbers("em"))).sorted())
    }

    /// The viewports to measure for the widths `named` in media queries, within `ladder`: just
    /// below and at each width (for `min-width`), and just above it (for `max-width`).
    static func viewports(for named: [Double], in ladder: ViewportLadder) -> [Int] {
        var result = Set<Int>()
        // A page names any number (`min-width: 1e300px`): only those near the ladder become
        // whole viewports, so no conversion can trap.
        for width in named where width.isFinite && width > Double(ladder.lowest - 2) && width < Double(ladder.highest + 2) {
            for viewport in [Int(width.rounded(.up)) - 1, Int(width.rounded(.up)), Int(width.rounded(.down)) + 1]
            where viewport >= ladder.lowest && viewport <= ladder.highest {
                result.insert(viewport)
            }
        }
        return result.sorted()
    }
}
