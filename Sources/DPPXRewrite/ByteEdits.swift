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
        // Insertions at one offset stay in the order they were made (`</picture>` then `<picture>`).
        let ordered = edits.enumerated().sorted {
            ($0.element.range.lowerBound, $0.element.range.upperBound, $0.offset) < ($1.element.range.lowerBound, $1.element.range.upperBound, $1.offset)
        }.map(\.element)
        for edit in ordered {
            result += original[position..<edit.range.lowerBound]
            result += edit.replacement
            position = edit.range.upperBound
        }
        result += original[position...]
        return result
    }
}
