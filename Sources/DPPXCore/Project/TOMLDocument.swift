/// The part of TOML a project file needs, read with the line of every key so that errors can
/// point at it: `[table]` and `[[array-of-tables]]` headers, `key = value` with bare or quoted
/// keys, basic and literal strings, integers, floats, booleans, arrays (over several lines too)
/// and `#` comments. Dotted keys, inline tables, multi-line strings and dates are refused with
/// an error naming the line, rather than misread.
public struct TOMLDocument: Hashable, Sendable {
    /// One value, as written.
    public enum Value: Hashable, Sendable {
        case string(String)
        case integer(Int)
        case float(Double)
        case bool(Bool)
        case array([Value])

        /// What kind of value this is, for errors: `a string`, `an array`.
        public var kind: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a number"
            case .bool: "true or false"
            case .array: "an array"
            }
        }
    }

    /// `key = value` on `line` (1-based).
    public struct Entry: Hashable, Sendable {
        public let key: String
        public let value: Value
        public let line: Int
    }

    /// A `[name]` table (the root table has an empty name) or one `[[name]]` element.
    public struct Table: Hashable, Sendable {
        public let name: String
        /// True for a `[[name]]` element.
        public let isArrayElement: Bool
        /// The header's line (1 for the root table).
        public let line: Int
        public internal(set) var entries: [Entry]
    }

    /// How deep arrays may nest: a project file needs two levels at most, and a reader that
    /// recursed once per `[` would overflow its stack on a hostile file (`[[[[...]]]]` 50 000
    /// deep is 100 KB).
    public static let maximumArrayDepth = 32

    /// Tables in file order, the root table first.
    public private(set) var tables: [Table]

    /// Parses `text`; the error names the line and what was expected.
    public init(parsing text: String) throws(ProjectFileError) {
        var parser = Parser(text: text)
        tables = try parser.parse()
    }
}

/// A hand-written reader over the UTF-8 bytes of a TOML text.
private struct Parser {
    let bytes: [UInt8]
    var index = 0
    var line = 1

    init(text: String) { bytes = Array(text.utf8) }

    mutating func parse() throws(ProjectFileError) -> [TOMLDocument.Table] {
        var tables = [TOMLDocument.Table(name: "", isArrayElement: false, line: 1, entries: [])]
        var seenTables: Set<String> = []
        while true {
            skipBlankAndComments()
            guard let byte = peek() else { break }
            if byte == UInt8(ascii: "[") {
                let headerLine = line
                index += 1
                let isArray = peek() == UInt8(ascii: "[")
                if isArray { index += 1 }
                skipSpaces()
                let name = try key()
                skipSpaces()
                try expect("]", "a ']' closing the table header")
                if isArray { try expect("]", "']]' closing the [[\(name)]] header") }
                try endOfLine()
                if !isArray {
                    guard seenTables.insert(name).inserted else {
                        throw ProjectFileError(line: headerLine, key: name, problem: "the table [\(name)] appears twice; put its keys under one header")
                    }
                }
                tables.append(TOMLDocument.Table(name: name, isArrayElement: isArray, line: headerLine, entries: []))
                continue
            }
            let entryLine = line
            let name = try key()
            skipSpaces()
            if peek() == UInt8(ascii: ".") {
                throw ProjectFileError(line: entryLine, key: name, problem: "dotted keys are not supported; write the key under a [table] header")
            }
            try expect("=", "'=' after the key \(name)")
            skipSpaces()
            let value = try value(for: name, depth: 0)
            try endOfLine()
            if tables[tables.count - 1].entries.contains(where: { $0.key == name }) {
                throw ProjectFileError(line: entryLine, key: name, problem: "is set twice in the same table; keep one")
            }
            tables[tables.count - 1].entries.append(TOMLDocument.Entry(key: name, value: value, line: entryLine))
        }
        return tables
    }

    // MARK: Pieces

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipSpaces() {
        while let byte = peek(), byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") { index += 1 }
    }

    /// Skips spaces, comments and line breaks (between entries and inside arrays).
    mutating func skipBlankAndComments() {
        while let byte = peek() {
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") {
                index += 1
            } else if byte == UInt8(ascii: "\n") {
                index += 1
                line += 1
            } else if byte == UInt8(ascii: "#") {
                while let next = peek(), next != UInt8(ascii: "\n") { index += 1 }
            } else {
                return
            }
        }
    }

    /// After a value or header: spaces, an optional comment, then a line break or the end.
    mutating func endOfLine() throws(ProjectFileError) {
        skipSpaces()
        if peek() == UInt8(ascii: "#") {
            while let next = peek(), next != UInt8(ascii: "\n") { index += 1 }
        }
        if peek() == UInt8(ascii: "\r") { index += 1 }
        guard let byte = peek() else { return }
        guard byte == UInt8(ascii: "\n") else {
            throw ProjectFileError(line: line, key: nil, problem: "unexpected '\(Character(Unicode.Scalar(byte)))' after the value; put one key = value per line")
        }
    }

    mutating func expect(_ character: Character, _ what: String) throws(ProjectFileError) {
        guard let byte = peek(), byte == character.asciiValue else {
            throw ProjectFileError(line: line, key: nil, problem: "expected \(what)")
        }
        index += 1
    }

    /// A bare key (`A-Za-z0-9_-`) or a quoted one.
    mutating func key() throws(ProjectFileError) -> String {
        if peek() == UInt8(ascii: "\"") || peek() == UInt8(ascii: "'") { return try string() }
        let start = index
        while let byte = peek(), byte.isBareKeyByte { index += 1 }
        guard index > start else {
            throw ProjectFileError(line: line, key: nil, problem: "expected a key (letters, digits, '-' and '_', or a quoted name) or a [table] header")
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `depth` counts the arrays around this value.
    mutating func value(for key: String, depth: Int) throws(ProjectFileError) -> TOMLDocument.Value {
        guard let byte = peek(), byte != UInt8(ascii: "\n"), byte != UInt8(ascii: "#") else {
            throw ProjectFileError(line: line, key: key, problem: "has no value; write e.g. \(key) = \"...\"")
        }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return .string(try string())
        case UInt8(ascii: "["):
            guard depth < TOMLDocument.maximumArrayDepth else {
                throw ProjectFileError(line: line, key: key, problem: "has arrays nested deeper than \(TOMLDocument.maximumArrayDepth) levels; write a flat array, e.g. \(key) = [1, 2]")
            }
            index += 1
            var items: [TOMLDocument.Value] = []
            while true {
                skipBlankAndComments()
                if peek() == UInt8(ascii: "]") { index += 1; break }
                items.append(try value(for: key, depth: depth + 1))
                skipBlankAndComments()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect("]", "',' or ']' in the array of \(key)")
                break
            }
            return .array(items)
        case UInt8(ascii: "{"):
            throw ProjectFileError(line: line, key: key, problem: "inline tables are not supported; use a [table] or [[rule]] header")
        default:
            let start = index
            while let next = peek(), next.isBareKeyByte || next == UInt8(ascii: ".") || next == UInt8(ascii: "+") { index += 1 }
            let word = String(decoding: bytes[start..<index], as: UTF8.self)
            if word == "true" { return .bool(true) }
            if word == "false" { return .bool(false) }
            let digits = word.replacingUnderscores()
            if let integer = Int(digits) { return .integer(integer) }
            if word.contains("."), let number = Double(digits), number.isFinite { return .float(number) }
            throw ProjectFileError(line: line, key: key, problem: "has a value that is not a string, number, true/false or array: '\(word.isEmpty ? String(Character(Unicode.Scalar(byte))) : word)' (quote text: \(key) = \"...\")")
        }
    }

    /// A basic (`"..."`, with escapes) or literal (`'...'`) string on one line.
    mutating func string() throws(ProjectFileError) -> String {
        let quote = bytes[index]
        index += 1
        if peek() == quote, index + 1 < bytes.count, bytes[index + 1] == quote {
            throw ProjectFileError(line: line, key: nil, problem: "multi-line strings are not supported; write the text on one line")
        }
        var result: [UInt8] = []
        while true {
            guard let byte = peek(), byte != UInt8(ascii: "\n") else {
                throw ProjectFileError(line: line, key: nil, problem: "a string is not closed on its line; add the closing \(Character(Unicode.Scalar(quote)))")
            }
            index += 1
            if byte == quote { break }
            if byte == UInt8(ascii: "\\") && quote == UInt8(ascii: "\"") {
                guard let escaped = peek() else { continue }
                index += 1
                switch escaped {
                case UInt8(ascii: "\""): result.append(escaped)
                case UInt8(ascii: "\\"): result.append(escaped)
                case UInt8(ascii: "n"): result.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): result.append(UInt8(ascii: "\t"))
                default:
                    throw ProjectFileError(line: line, key: nil, problem: "unknown escape '\\\(Character(Unicode.Scalar(escaped)))' in a string; write '\\\\' for a backslash or use 'single quotes'")
                }
                continue
            }
            result.append(byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension UInt8 {
    fileprivate var isBareKeyByte: Bool {
        (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z")) || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
            || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9")) || self == UInt8(ascii: "-") || self == UInt8(ascii: "_")
    }
}

extension String {
    /// TOML allows `1_000_000`.
    fileprivate func replacingUnderscores() -> String { String(filter { $0 != "_" }) }
}
