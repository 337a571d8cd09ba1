/// A single `Range: bytes=...` request, resolved against a file's size (RFC 9110 14.1): suffix
/// ranges (`bytes=-500` is the last 500 bytes), open ranges, and ranges past the end.
enum ByteRange: Equatable {
    /// Serve these bytes (inclusive).
    case satisfiable(ClosedRange<Int>)
    /// No byte of the file is in the range: 416.
    case unsatisfiable
    /// Not a single byte range we read (several ranges, other units, garbage): ignore it and
    /// send the whole file, as RFC 9110 allows.
    case ignored

    init(header: String, size: Int) {
        let text = header.filter { $0 != " " && $0 != "\t" }
        guard text.lowercased().hasPrefix("bytes="), !text.contains(",") else {
            self = .ignored
            return
        }
        let spec = text.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 64 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
            self = .ignored
            return
        }
        // A number past `Int.max` is past any file's end, and reads as `Int.max`: a last byte
        // that far means "to the end", a first byte that far cannot be satisfied.
        func number(_ digits: Substring) -> Int? {
            digits.isEmpty ? nil : Int(digits) ?? Int.max
        }
        switch (number(parts[0]), number(parts[1])) {
        case (nil, let suffix?):
            guard suffix > 0, size > 0 else { self = .unsatisfiable; return }
            self = .satisfiable((suffix >= size ? 0 : size - suffix)...(size - 1))
        case (let first?, nil):
            self = first < size ? .satisfiable(first...(size - 1)) : .unsatisfiable
        case (let first?, let last?):
            guard first <= last else { self = .ignored; return }
            self = first < size ? .satisfiable(first...min(last, size - 1)) : .unsatisfiable
        case (nil, nil):
            self = .ignored
        }
    }
}
