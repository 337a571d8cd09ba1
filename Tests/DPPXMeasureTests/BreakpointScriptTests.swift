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

@Suite("the widths a page's answer names, read as hostile input")
struct BreakpointAnswerTests {
    @Test("widths and the ones named in em are read; anything else, or too many, is dropped")
    func answer() {
        let read = BreakpointScript.widths(fromAnswer: #"{"widths": [768, 1024, 640], "em": [768, 768, 640]}"#)
        #expect(read.named == [768, 1024, 640])
        #expect(read.em == [640, 768])
        for hostile in ["[768]", "null", "{\"widths\": \"768\"}", "{\"widths\": [1e400, -5, 0, \"9\", null], \"em\": {}}", "not json"] {
            let nothing = BreakpointScript.widths(fromAnswer: hostile)
            #expect(nothing.named.isEmpty && nothing.em.isEmpty, "\(hostile)")
        }
        let many = "{\"widths\": [" + (0..<10_000).map { "\(320 + $0 % 2000)" }.joined(separator: ",") + "]}"
        #expect(BreakpointScript.widths(fromAnswer: many).named.count == BreakpointScript.maximumWidths)
    }
}
