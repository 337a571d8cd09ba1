/// Changes to a page as byte ranges of the original and their replacements: every byte no
/// edit covers is kept exactly as it was.
struct ByteEdits: Sendable {
    private var edits: [(range: Range<Int>, replacement: [UInt8])] = []

    /// What `replace` did with an edit.
    enum Outcome: Equatable, Sendable {
        /// It is one of the edits.
        case added
        /// The same edit was already made (an element the HTML parser copied, with the
        /// original's source position): it is made once.
        case merged
        /// It overlaps another edit (two images of one `<picture>` updating its `<source>`
        /// differently): the first one made stands.
        case refused
    }

    var isEmpty: Bool { edits.isEmpty }

    /// Replaces `range` (empty to insert) with `text`. Insertions at one offset are kept in the
    /// order made (`</picture>` then `<picture>`), unless one is the same as an earlier one.
    @discardableResult
    mutating func replace(_ range: Range<Int>, with text: String) -> Outcome {
        let replacement = Array(text.utf8)
        if edits.contains(where: { $0.range == range && $0.replacement == replacement }) { return .merged }
        let clashes = edits.contains { edit in
            (edit.range == range && !range.isEmpty)
                || edit.range.overlaps(range)
                || (range.isEmpty && edit.range.lowerBound < range.lowerBound && range.lowerBound < edit.range.upperBound)
                || (edit.range.isEmpty && range.lowerBound < edit.range.lowerBound && edit.range.lowerBound < range.upperBound)
        }
        guard !clashes else { return .refused }
        edits.append((range, replacement))
        return .added
    }

    /// Where the byte at `offset` of the original is once the edits are made (insertions at
    /// `offset` itself come before it).
    func newOffset(of offset: Int) -> Int {
        offset + edits.filter { $0.range.upperBound <= offset }.reduce(0) { $0 + $1.replacement.count - $1.range.count }
    }

    /// `original` with the edits made; edits never overlap.
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
