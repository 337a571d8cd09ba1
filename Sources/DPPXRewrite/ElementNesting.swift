/// How deeply a page nests its elements, read ahead of the HTML parser. gumbo's tree building
/// walks the stack of open elements for most tags, so a page nested N deep costs N² steps
/// (20 000 nested `<div>`s: 0.4 s; 200 000, a 1 MB page: 80 s); Chromium stops nesting at
/// 512 levels (deeper elements become siblings), so no page a browser shows as written is
/// deeper. A page whose elements go deeper than `maximumDepth` is left as it is, unparsed.
///
/// The count follows the HTML parser's rules closely enough never to count less than it builds:
/// raw text (`<script>`, `<style>`, `<textarea>`, ...) and comments hold no elements; void
/// elements (`<img>`, `<br>`) and `/>` in SVG and MathML open none; an end tag closes what the
/// parser would close (up to the first element that stops it: "special" elements for most end
/// tags, scope boundaries for the end tags of special elements; a formatting element's only when
/// nothing special was opened inside it, as the adoption agency moves rather than closes); a start tag closes
/// the same optional-end element (`<li>`, `<p>`, `<td>`, `<option>`...) only when it is the one
/// open on top. Where the parser closes more (implied end tags elsewhere), the count is higher,
/// never lower.
enum ElementNesting {
    /// Chromium's limit (`HTMLConstructionSite::kMaximumHTMLParserDOMTreeDepth`).
    static let maximumDepth = 512

    /// The offset of the first start tag that opens an element deeper than `limit`; nil when
    /// none does.
    static func firstTooDeep(in bytes: UnsafeBufferPointer<UInt8>, limit: Int = maximumDepth) -> Int? {
        var scanner = Scanner(bytes: bytes, limit: limit)
        return scanner.run()
    }

    static func firstTooDeep(in bytes: [UInt8], limit: Int = maximumDepth) -> Int? {
        bytes.withUnsafeBufferPointer { firstTooDeep(in: $0, limit: limit) }
    }

    /// Why a page is not read.
    enum Refusal: Equatable {
        /// It opens an element deeper than the limit, at this offset.
        case tooDeep(Int)
        /// Its markup fails one of gumbo's assertions (`CGumboGuard`).
        case abortsTheParser
    }

    /// The deepest the count goes in `bytes`: at least the depth of the elements the parser
    /// builds from them (those it makes up itself, `<html>`, `<body>`, `<tbody>`, aside).
    static func depth(of bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer, limit: Int.max)
            _ = scanner.run()
            return scanner.deepest
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let limit: Int
        var index = 0
        /// The most elements open at once so far.
        var deepest = 0
        /// The open elements' names, lowercased.
        var open: [[UInt8]] = []
        /// For each of them, whether it is SVG or MathML (where `/>` closes an element and
        /// `<style>` holds markup) rather than HTML.
        var isForeign: [Bool] = []
        /// Whether what opens next goes into SVG or MathML: the current element is foreign and
        /// not one of the points where HTML comes back (`<foreignObject>`, `<mi>`...).
        var inForeign: Bool {
            guard let last = open.last, isForeign.last == true else { return false }
            return !Self.integrationPoints.contains(last)
        }

        init(bytes: UnsafeBufferPointer<UInt8>, limit: Int) {
            self.bytes = bytes
            self.limit = limit
            open.reserveCapacity(min(limit, 1023) + 1)
        }

        mutating func run() -> Int? {
            let count = bytes.count
            while index < count {
                guard let lt = next(UInt8(ascii: "<"), from: index) else { return nil }
                let start = lt
                index = lt + 1
                guard index < count else { return nil }
                let byte = bytes[index]
                if byte == UInt8(ascii: "!") {
                    skipMarkupDeclaration()
                } else if byte == UInt8(ascii: "?") {
                    skip(past: UInt8(ascii: ">"))
                } else if byte == UInt8(ascii: "/") {
                    index += 1
                    guard index < count else { return nil }
                    if isLetter(bytes[index]) {
                        let name = readName()
                        skip(past: UInt8(ascii: ">"))
                        close(name)
                    } else {
                        skip(past: UInt8(ascii: ">"))
                    }
                } else if isLetter(byte) {
                    let name = readName()
                    let selfClosing = skipAttributes()
                    if let deeper = opened(name, selfClosing: selfClosing, at: start) { return deeper }
                }
            }
            return nil
        }

        // MARK: Tokens

        /// `<!--...-->`, `<![CDATA[...]]>` or `<!...>`, `index` on the `!`.
        mutating func skipMarkupDeclaration() {
            if matches("!--", at: index) {
                // `<!-->` and `<!--->` end at once, as the tokenizer has them.
                index += 3
                if matches(">", at: index) || matches("->", at: index) {
                    skip(past: UInt8(ascii: ">"))
                    return
                }
                skip(pastSequence: Array("-->".utf8))
            } else if inForeign, matches("![CDATA[", at: index) {
                skip(pastSequence: Array("]]>".utf8))
            } else {
                skip(past: UInt8(ascii: ">"))
            }
        }

        /// A tag's name from `index`, lowercased; `index` after it.
        mutating func readName() -> [UInt8] {
            var name: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                if isSpace(byte) || byte == UInt8(ascii: "/") || byte == UInt8(ascii: ">") { break }
                name.append(Self.lowercased(byte))
                index += 1
            }
            return name
        }

        /// A start tag's attributes up to its `>` (quoted values may hold `>`); whether it ends
        /// with `/>`.
        mutating func skipAttributes() -> Bool {
            let count = bytes.count
            var lastSlash = false
            while index < count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ">") {
                    index += 1
                    return lastSlash
                }
                if byte == UInt8(ascii: "=") {
                    index += 1
                    while index < count, isSpace(bytes[index]) { index += 1 }
                    if index < count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                        let quote = bytes[index]
                        index = (next(quote, from: index + 1) ?? count - 1) + 1
                    }
                    lastSlash = false
                    continue
                }
                lastSlash = byte == UInt8(ascii: "/")
                index += 1
            }
            return false
        }

        // MARK: The tree

        /// Counts the start tag `name` (at `start`); the offset when it opens an element deeper
        /// than the limit.
        mutating func opened(_ name: [UInt8], selfClosing: Bool, at start: Int) -> Int? {
            // An HTML element named in SVG or MathML ends them: it opens where HTML is.
            if inForeign, Self.breakingOut.contains(name) {
                while inForeign { pop() }
            }
            let foreign = inForeign || Self.foreignRoots.contains(name)
            if foreign {
                // `/>` closes SVG and MathML elements (and only those).
                if selfClosing { return nil }
            } else {
                if Self.void.contains(name) { return nil }
                if name == Self.plaintext {
                    index = bytes.count
                    return nil
                }
                if Self.rawText.contains(name) {
                    skipRawText(name)
                    return nil
                }
                closeImplied(before: name)
            }
            open.append(name)
            isForeign.append(foreign)
            deepest = max(deepest, open.count)
            return open.count > limit ? start : nil
        }

        /// The text of `<script>`, `<style>` and the like, up to its end tag, which is skipped.
        mutating func skipRawText(_ name: [UInt8]) {
            let count = bytes.count
            while let lt = next(UInt8(ascii: "<"), from: index) {
                index = lt + 1
                guard index < count, bytes[index] == UInt8(ascii: "/") else { continue }
                var position = index + 1
                var matched = true
                for expected in name {
                    guard position < count else { matched = false; break }
                    let byte = bytes[position]
                    if Self.lowercased(byte) != expected { matched = false; break }
                    position += 1
                }
                guard matched, position >= count || isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "/") || bytes[position] == UInt8(ascii: ">") else { continue }
                index = position
                skip(past: UInt8(ascii: ">"))
                return
            }
            index = count
        }

        /// What a start tag of `name` closes, only ever the optional-end elements on top.
        mutating func closeImplied(before name: [UInt8]) {
            if Self.closesParagraph.contains(name), open.last == Self.paragraph { pop() }
            switch name {
            case Self.paragraph:
                if open.last == Self.paragraph { pop() }
            case Self.listItem:
                if open.last == Self.listItem { pop() }
            case Self.definitionTerm, Self.definitionDescription:
                if let top = open.last, top == Self.definitionTerm || top == Self.definitionDescription { pop() }
            case Self.option:
                if open.last == Self.option { pop() }
            case Self.optionGroup:
                if open.last == Self.option { pop() }
                if open.last == Self.optionGroup { pop() }
            case Self.cell, Self.headerCell:
                if let top = open.last, Self.cells.contains(top) { pop() }
            case Self.row:
                if let top = open.last, Self.cells.contains(top) { pop() }
                if open.last == Self.row { pop() }
            case _ where Self.tableSections.contains(name):
                if let top = open.last, Self.cells.contains(top) { pop() }
                if open.last == Self.row { pop() }
                if let top = open.last, Self.tableSections.contains(top) { pop() }
            default:
                break
            }
        }

        /// The end tag `name`: closes what the parser would, at most.
        mutating func close(_ name: [UInt8]) {
            if Self.formatting.contains(name) {
                // With no special element opened inside it, the adoption agency closes it and
                // what is inside; with one, it moves elements rather than closing them: the
                // count stays.
                if let at = open.lastIndex(of: name), !open[(at + 1)...].contains(where: { Self.special.contains($0) }) {
                    while open.count > at { pop() }
                }
                return
            }
            // `</body>` and `</html>` close nothing (what follows still goes in the body);
            // `</br>` is a `<br>`.
            if Self.unclosing.contains(name) { return }
            // `</form>` closes the form only when nothing was opened inside it (the standard
            // takes it out from under what was; gumbo leaves it).
            if name == Self.form {
                if open.last == name { pop() }
                return
            }
            let isSpecial = Self.special.contains(name)
            var position = open.count - 1
            while position >= 0 {
                let node = open[position]
                if node == name {
                    while open.count > position { pop() }
                    return
                }
                // A special element's end tag looks through to its scope's edge (a list
                // item's stops at a list too, a paragraph's at a button); any other stops at
                // the first special element.
                if isSpecial {
                    if Self.scopeBoundaries.contains(node) { return }
                    if name == Self.listItem, Self.lists.contains(node) { return }
                    if name == Self.paragraph, node == Self.button { return }
                } else if Self.special.contains(node) {
                    return
                }
                position -= 1
            }
        }

        mutating func pop() {
            _ = open.popLast()
            _ = isForeign.popLast()
        }

        // MARK: Bytes

        func next(_ byte: UInt8, from start: Int) -> Int? {
            var position = start
            while position < bytes.count {
                if bytes[position] == byte { return position }
                position += 1
            }
            return nil
        }

        mutating func skip(past byte: UInt8) {
            index = (next(byte, from: index) ?? bytes.count - 1) + 1
        }

        mutating func skip(pastSequence sequence: [UInt8]) {
            while let found = next(sequence[0], from: index) {
                if matches(sequence, at: found) {
                    index = found + sequence.count
                    return
                }
                index = found + 1
            }
            index = bytes.count
        }

        func matches(_ text: String, at position: Int) -> Bool { matches(Array(text.utf8), at: position) }

        func matches(_ sequence: [UInt8], at position: Int) -> Bool {
            guard position + sequence.count <= bytes.count else { return false }
            for (offset, byte) in sequence.enumerated() where bytes[position + offset] != byte { return false }
            return true
        }

        /// ASCII letters lowercased; every other byte as it is.
        static func lowercased(_ byte: UInt8) -> UInt8 {
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { return byte | 0x20 }
            return byte
        }

        func isLetter(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
        }

        func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
        }

        // MARK: Element kinds (the HTML standard's lists)

        static func names(_ list: String) -> Set<[UInt8]> { Set(list.split(separator: " ").map { Array($0.utf8) }) }

        static let void = names("area base basefont bgsound br col embed frame hr image img input keygen link meta param source track wbr")
        static let rawText = names("script style textarea title xmp iframe noembed noframes")
        static let plaintext = Array("plaintext".utf8)
        static let foreignRoots = names("svg math")
        /// Where SVG and MathML hold HTML again (HTML integration and MathML text integration points).
        static let integrationPoints = names("foreignobject desc title mi mo mn ms mtext annotation-xml")
        /// The start tags that end SVG and MathML (the standard's "breakout" list; `<font>`,
        /// which breaks out only with some attributes, is left in: counted deeper, never less).
        static let breakingOut = names("""
            b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img li listing menu meta \
            nobr ol p pre ruby s small span strong strike sub sup table tt u ul var
            """)
        static let formatting = names("a b big code em font i nobr s small strike strong tt u")
        static let special = names("""
            address applet area article aside base basefont bgsound blockquote body br button caption center col colgroup dd details \
            dir div dl dt embed fieldset figcaption figure footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html \
            iframe img input keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p param plaintext \
            pre script search section select source style summary table tbody td template textarea tfoot th thead title tr track ul \
            wbr xmp mi mo mn ms mtext annotation-xml foreignobject desc
            """)
        static let scopeBoundaries = names("applet caption html table td th marquee object template mi mo mn ms mtext annotation-xml foreignobject desc title")
        static let closesParagraph = names("""
            address article aside blockquote center details dialog dir div dl dd dt li fieldset figcaption figure footer header hgroup main \
            menu nav ol search section summary ul h1 h2 h3 h4 h5 h6 pre listing form table hr xmp plaintext
            """)
        static let unclosing = names("body html br")
        static let form = Array("form".utf8)
        static let lists = names("ol ul")
        static let button = Array("button".utf8)
        static let paragraph = Array("p".utf8)
        static let listItem = Array("li".utf8)
        static let definitionTerm = Array("dt".utf8)
        static let definitionDescription = Array("dd".utf8)
        static let option = Array("option".utf8)
        static let optionGroup = Array("optgroup".utf8)
        static let cell = Array("td".utf8)
        static let headerCell = Array("th".utf8)
        static let row = Array("tr".utf8)
        static let cells = names("td th")
        static let tableSections = names("tbody thead tfoot")
    }
}
