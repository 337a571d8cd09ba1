import DPPXCore
import Foundation
import Testing

/// A page that could not be measured is kept in `dppx-layout.json` under `failed`, with the
/// hash of what it loaded and one of dppx's own reasons: absent from files with no failure,
/// read back as written, and a reason dppx never writes is refused with the file.
@Suite struct LayoutFailureTests {
    static func encoded(_ layout: LayoutFile) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(layout)) ?? Data(), as: UTF8.self)
    }

    @Test("without a failure there is no failed key (files written before it read and write the same bytes); with one it is read back as written")
    func roundTrip() throws {
        #expect(Self.encoded(LayoutFile()) == #"{"pages":{},"version":5}"#)
        #expect(try LayoutFile.decode(Array(#"{"pages":{},"version":5}"#.utf8)).layout.failed.isEmpty)
        let failure = LayoutFile.Failure(hash: "57f8e6bc54bcb561f0c425865165fbf6", dependencies: ["map.html", "css/", "img/a.jpg"], reason: .unstyled)
        let layout = LayoutFile(failed: ["map.html": failure])
        let text = Self.encoded(layout)
        #expect(text == #"{"failed":{"map.html":{"dependencies":["map.html","css/","img/a.jpg"],"hash":"57f8e6bc54bcb561f0c425865165fbf6","reason":"unstyled"}},"pages":{},"version":5}"#)
        #expect(try LayoutFile.decode(Array(text.utf8)).layout == layout)
    }

    @Test("a page that timed out fails the same way only under a timeout no longer than the one it outlasted; other reasons whatever the timeout")
    func timedOut() {
        let timedOut = LayoutFile.Failure(hash: "h", dependencies: ["a.html"], reason: .timedOut, seconds: 60)
        #expect(timedOut.holds(timeout: 60) && timedOut.holds(timeout: 30) && !timedOut.holds(timeout: 61))
        #expect(LayoutFile.Failure(hash: "h", dependencies: ["a.html"], reason: .navigated).holds(timeout: 600))
    }

    @Test("every reason is written as a word of dppx's and explained; a reason dppx never writes (text a page chose) is refused with the file")
    func reasons() throws {
        #expect(LayoutFile.Failure.Reason.allCases.map(\.rawValue) == ["timed-out", "navigated", "unmeasurable", "unstyled"])
        #expect(Set(LayoutFile.Failure.Reason.allCases.map(\.explanation)).count == LayoutFile.Failure.Reason.allCases.count, "each told its own way")
        let forged = #"{"failed":{"a.html":{"dependencies":["a.html"],"hash":"h","reason":"\u001b[2Jnavigated to https://evil.example/"}},"pages":{},"version":5}"#
        #expect(throws: LayoutFileError.self) { try LayoutFile.decode(Array(forged.utf8)) }
    }
}
