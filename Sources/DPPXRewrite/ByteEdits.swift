/// Changes to a page as byte ranges of the original and their replacements: every byte no
/// edit covers is kept exactly as it was.
struct ByteEdits: Sendable {
    private var edits: [(range: Range<Int>, replacement: [UInt8])] = []

    var isEmpty: Bool { edits.isEmpty }

    /// Replaces `range` (empty to insert) with `text`.
    mutating func replace(_ range: Range<Int>, with text: String) {
        edits.append((range, Array(text.utf8)))
    }

    /// `original` with the edits made; edits must not overlap.
    func applied(to original: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(original.count + edits.reduce(0) { $0 + $1.replacement.count })
        var position = 0
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            result += original[position..<edit.range.lowerBound]
            result += edit.replacement
            position = edit.range.upperBound
        }
        result += original[position...]
        return result
    }
}
