@testable import DPPXRewrite
import Testing

/// Edits never overlap and are made once each: the bytes of a page change in one place per
/// edit, whatever the parser lists twice.
@Suite struct ByteEditsTests {
    @Test func anIdenticalEditIsMadeOnce() {
        var edits = ByteEdits()
        #expect(edits.replace(3..<3, with: "x") == .added)
        #expect(edits.replace(3..<3, with: "x") == .merged)
        #expect(edits.replace(0..<2, with: "y") == .added)
        #expect(edits.replace(0..<2, with: "y") == .merged)
        #expect(String(decoding: edits.applied(to: Array("abcdef".utf8)), as: UTF8.self) == "ycxdef")
    }

    @Test func overlappingEditsAreRefused() {
        var edits = ByteEdits()
        #expect(edits.replace(2..<5, with: "x") == .added)
        #expect(edits.replace(2..<5, with: "y") == .refused)
        #expect(edits.replace(4..<8, with: "y") == .refused)
        #expect(edits.replace(3..<3, with: "y") == .refused, "an insertion inside a replaced range")
        #expect(String(decoding: edits.applied(to: Array("abcdefgh".utf8)), as: UTF8.self) == "abxfgh")
    }

    @Test func differentInsertionsAtOneOffsetKeepTheirOrder() {
        var edits = ByteEdits()
        #expect(edits.replace(1..<1, with: "</p>") == .added)
        #expect(edits.replace(1..<1, with: "<p>") == .added)
        #expect(String(decoding: edits.applied(to: Array("ab".utf8)), as: UTF8.self) == "a</p><p>b")
    }
}
