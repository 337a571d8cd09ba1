@testable import DPPXMeasure
import Testing

@Suite("which pages are measured again after settling")
struct ScriptedLayoutTests {
    @Test("a page with a script element or an inline load or resize handler has scripts; CSS alone does not")
    func scripts() {
        #expect(ScriptedLayout.hasScripts(Array(#"<p>x</p><SCRIPT src="slider.js"></SCRIPT>"#.utf8)))
        #expect(ScriptedLayout.hasScripts(Array(#"<body onload="start()">"#.utf8)))
        #expect(!ScriptedLayout.hasScripts(Array("<style>img { width: 100% }</style><p>No scripts here.</p>".utf8)))
    }

    @Test("the probes are widths of the sweep's ladder, near a phone's and a laptop's")
    func probes() {
        let ladder = ViewportLadder()
        let probes = ScriptedLayout.probeWidths(in: ladder)
        #expect(probes.count == 2)
        #expect(probes.allSatisfy { ladder.coarse.contains($0) }, "\(probes) in \(ladder.coarse)")
        #expect(abs(probes[0] - 375) <= ladder.step / 2 && abs(probes[1] - 1280) <= ladder.step / 2, "\(probes)")
    }
}
