import DPPXCore
import DPPXFiles
import Foundation

/// Answers the browser's requests for a site from its folder on disk, as `Fetch.requestPaused`
/// hands them over: no server and no socket.
///
/// Pages, stylesheets, scripts and fonts are the files under the root (a path that leaves it,
/// through `..` or a link, and every other origin answer 404, so nothing reaches the network).
/// An image of a manifest is answered with an SVG of its CSS size (`SiteImages.pixelSizes`) and nothing
/// else: its natural size is what the untouched page shows, without sending megabytes. An HTML
/// page gets `data-dppx-at-RUN="OFFSET"` on each `<img>` (`offsetAttribute`), the byte offset of its tag in the source,
/// which is how measurements name an occurrence; the `srcset` and `sizes` an earlier rewrite
/// wrote are turned off (`PageMarks`), so a rewritten page is measured as the untouched one.
public struct SiteResponder: Sendable {
    /// The origin pages are loaded from: made up, and never resolved (every request is answered
    /// here).
    public static let origin = "http://dppx.localhost"
    /// The attribute that carries an `<img>`'s source offset: named anew for each run, so a
    /// page's own `data-dppx-at…` attribute (on an `<image>`, which HTML parses as `<img>` and
    /// which is not marked) is never taken for one.
    public static let offsetAttribute = "data-dppx-at-" + String(UInt64.random(in: 1 << 40..<1 << 60), radix: 36)

    /// An answer.
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// The root-relative path it was read from, sized for or not found at; nil for a path
        /// outside the root or another origin.
        public var dependency: String?
    }

    /// The site's root, canonical.
    public let root: String
    /// Image URL paths from the root (`img/hero.jpg`) to the pixel size to answer them at.
    public let imageSizes: [String: PixelSize]
    /// What to mark and turn off in a page, by its bytes and root-relative path.
    public let marks: @Sendable (_ page: [UInt8], _ path: String) -> PageMarks
    /// Files answered from memory instead of the disk, by root-relative path: pages as a
    /// rewrite would write them, measured before anything is written.
    public var overlay: [String: [UInt8]] = [:]

    public init(root: String, imageSizes: [String: PixelSize], marks: @escaping @Sendable (_ page: [UInt8], _ path: String) -> PageMarks) {
        self.root = PathContainment.canonical(root)
        self.imageSizes = imageSizes
        self.marks = marks
    }

    /// A responder that marks each `<img` at `imageTagOffsets` and turns nothing off.
    public init(root: String, imageSizes: [String: PixelSize], imageTagOffsets: @escaping @Sendable ([UInt8]) -> [Int]) {
        self.init(root: root, imageSizes: imageSizes, marks: { page, _ in PageMarks(imageTags: imageTagOffsets(page)) })
    }

    /// The URL a page (a root-relative path) is loaded at.
    public static func url(ofPage page: String) -> String {
        origin + "/" + page.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/")
    }

    /// The path of the host page (a dot-folder no site serves): the page measured is loaded in
    /// its `<iframe>`, which `MeasureScript` resizes to each viewport width.
    static let hostPath = "/.dppx/measure"

    /// The URL of the host page holding `page` in a frame `height` CSS px high.
    public static func hostURL(ofPage page: String, height: Int) -> String {
        let query = page.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? page
        return origin + hostPath + "?height=\(height)&page=" + query
    }

    /// The host page for a host URL: the frame, with no border or margin, as high as asked and
    /// as wide as the first viewport, and an icon of its own (no `/favicon.ico` request, which
    /// would come at a varying moment); nil for any other URL.
    static func hostPage(for url: String) -> [UInt8]? {
        guard url.hasPrefix(origin + hostPath + "?"), let query = URLComponents(string: url)?.queryItems,
              let page = query.first(where: { $0.name == "page" })?.value,
              let height = query.first(where: { $0.name == "height" })?.value.flatMap(Int.init) else { return nil }
        let source = Self.url(ofPage: page).replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
        return Array("""
            <!doctype html><html><head><link rel="icon" href="data:,"><style>html, body { margin: 0; overflow: hidden }
            iframe { display: block; border: 0; width: 320px; height: \(height)px }</style></head>
            <body><iframe src="\(source)"></iframe></body></html>
            """.utf8)
    }

    /// The root-relative path of a URL under `origin`, percent-decoded; nil for another origin.
    public static func path(of url: String) -> String? {
        guard url.hasPrefix(origin + "/") else { return nil }
        var rest = url.dropFirst(origin.count + 1)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        var path = rest.removingPercentEncoding ?? String(rest)
        if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
        return path
    }

    /// The answer to a request for `url`.
    public func answer(_ url: String) -> Answer {
        if let host = Self.hostPage(for: url) {
            return Answer(status: 200, contentType: "text/html; charset=utf-8", body: host, dependency: nil)
        }
        guard let path = Self.path(of: url) else { return Self.notFound }
        if let size = imageSizes[path] {
            let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size.width)\" height=\"\(size.height)\"/>"
            return Answer(status: 200, contentType: "image/svg+xml", body: Array(svg.utf8), dependency: path)
        }
        guard let bytes = read(path) else {
            // A missing file under the root is a dependency too: its appearing changes the page.
            var answer = Self.notFound
            if PathContainment.escape(in: path) == nil { answer.dependency = path }
            return answer
        }
        let type = Self.contentType(of: path)
        let body = type.hasPrefix("text/html") ? marked(bytes, marks: marks(bytes, path)) : bytes
        return Answer(status: 200, contentType: type, body: body, dependency: path)
    }

    /// The bytes of the file at root-relative `path`; nil when it is missing, not a file, or
    /// outside the root.
    public func read(_ path: String) -> [UInt8]? {
        if let bytes = overlay[path] { return bytes }
        guard PathContainment.escape(in: path) == nil else { return nil }
        let full = root + "/" + path
        guard PathContainment.relativePath(of: full, inside: root) != nil else { return nil }
        return try? AtomicFile.read(full)
    }

    /// `page` with `offsetAttribute` on each `<img>` and `marks`' attributes turned off.
    func marked(_ page: [UInt8], marks: PageMarks) -> [UInt8] {
        var edits: [(at: Int, replacing: Int, text: [UInt8])] = []
        for offset in marks.imageTags where Self.isImageTag(page, at: offset) {
            edits.append((offset + 4, 0, Array(" \(Self.offsetAttribute)=\"\(offset)\"".utf8)))
        }
        for name in marks.disabledAttributes where name.lowerBound >= 0 && name.upperBound <= page.count {
            edits.append((name.lowerBound, name.count, Array("data-dppx-off-".utf8) + page[name]))
        }
        var result: [UInt8] = []
        result.reserveCapacity(page.count + 32 * edits.count)
        var copied = 0
        for edit in edits.sorted(by: { $0.at < $1.at }) where edit.at >= copied {
            result += page[copied..<edit.at]
            result += edit.text
            copied = edit.at + edit.replacing
        }
        result += page[copied...]
        return result
    }

    /// Whether `<img` followed by a space, `/` or `>` starts at `offset` (HTML parses
    /// `<image>` as an `<img>` too; that one is left unmarked).
    static func isImageTag(_ page: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + 4 < page.count, page[offset] == UInt8(ascii: "<") else { return false }
        guard String(decoding: page[(offset + 1)..<(offset + 4)], as: UTF8.self).lowercased() == "img" else { return false }
        return [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0c, UInt8(ascii: "/"), UInt8(ascii: ">")].contains(page[offset + 4])
    }

    static let notFound = Answer(status: 404, contentType: "text/plain", body: Array("not found".utf8), dependency: nil)

    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        let ext = name.split(separator: ".").count > 1 ? String(name.split(separator: ".").last!).lowercased() : ""
        if let format = ImageFormat(fileExtension: ext) { return format.mediaType }
        switch ext {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json": return "application/json"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "ttf": return "font/ttf"
        case "otf": return "font/otf"
        default: return "application/octet-stream"
        }
    }
}
