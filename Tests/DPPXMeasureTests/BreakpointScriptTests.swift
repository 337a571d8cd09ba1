@testable import DPPXMeasure
import Testing

@Suite("viewports around the widths a page's media queries name")
struct BreakpointScriptTests {
    @Test("both sides of a min-width, a max-width and a fractional bound; nothing outside the ladder")
    func viewports() {
        let ladder = ViewportLadder()
        #expect(BreakpointScript.viewports(for: [768], in: ladder) == [767, 768, 769])
        #expect(BreakpointScript.viewports(for: [767.98], in: ladder) == [767, 768])
        #expect(BreakpointScript.viewports(for: [200, 320, 4000, .infinity], in: ladder) == [320, 321])
        // A page names any number: none traps converting to a viewport.
        #expect(BreakpointScript.viewports(for: [1e300, -1e300, 9.3e18, .nan, -.infinity], in: ladder) == [])
    }
}
