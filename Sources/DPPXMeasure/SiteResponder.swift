import DPPXCore
import DPPXFiles
import Foundation

/// Answers the browser's requests for a site from its folder on disk, as `Fetch.requestPaused`
/// hands them over: no server and no socket.
///
/// A measured page is the site's own code: it may ask for anything. It is answered exactly
/// what `dppx serve` would answer it: a path is checked by `PathGuard` (400 for `..`, encoded
/// separators or NUL; 404 for a hidden name) and the file it reaches, every link resolved, must
/// lie inside the root and not be private (`PrivateFiles`: hidden files, `dppx.toml`, shards'
/// partial manifests, the masters' folder), the rule the server follows. A URL under the
/// site's own address (`baseURL`: Hugo's `absURL`, a page linking its stylesheet as
/// `https://example.com/css/site.css`) is answered from the root the same way. Every other
/// origin gets no answer (`answer(_:)` is nil): its request fails at once, as with no network,
/// and nothing reaches the network. A file larger than `largestFile` answers 404 without being
/// read.
///
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
    /// The largest file a measured page is answered (32 MiB): a page, a script, a stylesheet, a
    /// font or an image no manifest sizes. A larger one answers 404 without being read, as if
    /// missing (a page asking for a 256 MB file made dppx hold it several times over).
    public static let largestFile = 32 << 20

    /// An answer.
    public struct Answer: Sendable {
        public var status: Int
        public var contentType: String
        public var body: [UInt8]
        /// The root-relative path it was read from or sized for; for a file not found, the
        /// nearest folder above it that exists, with a trailing `/` (`./` for the root), whose
        /// change may make it appear; nil for a path refused (outside the root, private) or
        /// the host page. Only paths of the site's own files and folders: a page's made-up
        /// path is no dependency, and never reaches the layout file.
        public var dependency: String?
    }

    /// The site's root, canonical.
    public let root: String
    /// Image URL paths from the root (`img/hero.jpg`) to the pixel size to answer them at.
    public let imageSizes: [String: PixelSize]
    /// What is never answered, whatever the path or link that leads there: `dppx serve`'s rule.
    public let privateFiles: PrivateFiles
    /// What to mark and turn off in a page, by its bytes and root-relative path.
    public let marks: @Sendable (_ page: [UInt8], _ path: String) -> PageMarks
    /// Files answered from memory instead of the disk, by root-relative path: pages as a
    /// rewrite would write them, measured before anything is written.
    public var overlay: [String: [UInt8]] = [:]
    /// The site's own address, whose URLs stand for the root (`[rewrite] base-url`, `--base-url`:
    /// `https://example.com/`, `https://example.com/blog/`, `/blog/`): a page's request under it
    /// is answered from the root as one under `origin`. Nil: the site has none.
    public var baseURL: String? {
        didSet { sitePrefixes = Self.prefixes(baseURL: baseURL) }
    }
    /// The URL prefixes that stand for the root, longest first: `baseURL`'s, then `origin`'s.
    private var sitePrefixes = [SiteResponder.origin + "/"]

    /// `privateFolders`: the folders under the root never answered, as `dppx serve` is given
    /// them (`PrivateFiles.mastersFolders`).
    public init(root: String, imageSizes: [String: PixelSize], privateFolders: [String] = [],
                marks: @escaping @Sendable (_ page: [UInt8], _ path: String) -> PageMarks) {
        self.root = PathContainment.canonical(root)
        self.imageSizes = imageSizes
        self.privateFiles = PrivateFiles(folders: privateFolders, under: self.root)
        self.marks = marks
    }

    /// A responder that marks each `<img` at `imageTagOffsets` and turns nothing off.
    public init(root: String, imageSizes: [String: PixelSize], privateFolders: [String] = [],
                imageTagOffsets: @escaping @Sendable ([UInt8]) -> [Int]) {
        self.init(root: root, imageSizes: imageSizes, privateFolders: privateFolders,
                  marks: { page, _ in PageMarks(imageTags: imageTagOffsets(page)) })
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

    /// The URL prefixes standing for the root with `baseURL`: its own (its scheme and host
    /// lowercased, as the browser writes them; a path alone is under `origin`; one without a
    /// scheme, `//example.com/`, under both http and https), then `origin`'s, longest first.
    static func prefixes(baseURL: String?) -> [String] {
        var prefixes = [origin + "/"]
        let base = baseURL?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !base.isEmpty else { return prefixes }
        let folder = base.hasSuffix("/") ? base : base + "/"
        func lowercasedAuthority(_ url: String) -> String {
            guard let scheme = url.range(of: "://") else { return url }
            let rest = url[scheme.upperBound...]
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            return url[..<end].lowercased() + url[end...]
        }
        if folder.hasPrefix("//") {
            prefixes += ["http:" + folder, "https:" + folder].map(lowercasedAuthority)
        } else if folder.hasPrefix("/") {
            prefixes.append(origin + folder)
        } else if folder.lowercased().hasPrefix("http://") || folder.lowercased().hasPrefix("https://") {
            prefixes.append(lowercasedAuthority(folder))
        }
        return prefixes.sorted { $0.count > $1.count }
    }

    /// The root-relative path of a URL of the site (under `origin` or `baseURL`),
    /// percent-decoded; nil for another origin.
    public func rootPath(of url: String) -> String? {
        guard let raw = rawPath(of: url) else { return nil }
        return Self.relativePath(raw)
    }

    /// The root-relative path of a URL under `origin`, percent-decoded; nil for another origin.
    public static func path(of url: String) -> String? {
        guard url.hasPrefix(origin + "/") else { return nil }
        var rest = url.dropFirst(origin.count)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        return relativePath(String(rest))
    }

    /// A raw request path (`/css/a%20b.css`) as a root-relative path, percent-decoded, a
    /// folder's `index.html` for one ending in `/`.
    private static func relativePath(_ raw: String) -> String {
        var path = String(raw.dropFirst())
        path = path.removingPercentEncoding ?? path
        if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
        return path
    }

    /// The answer to a request for `url`; nil for a URL of another origin, which is not the
    /// site's: its request fails as with no network (never a 404 a script reads as an answer,
    /// never left pending).
    public func answer(_ url: String) -> Answer? {
        if let host = Self.hostPage(for: url) {
            return Answer(status: 200, contentType: "text/html; charset=utf-8", body: host, dependency: nil)
        }
        guard let raw = rawPath(of: url) else { return nil }
        let path: String
        switch PathGuard.check(raw) {
        case .badRequest(let why): return Answer(status: 400, contentType: "text/plain", body: Array(why.utf8), dependency: nil)
        case .hidden: return Self.notFound
        case .allowed(let decoded): path = Self.relative(decoded)
        }
        switch entry(path) {
        case .image(let size):
            let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(size.width)\" height=\"\(size.height)\"/>"
            return Answer(status: 200, contentType: "image/svg+xml", body: Array(svg.utf8), dependency: path)
        case .refused:
            return Self.notFound
        case .missing(let folder):
            var answer = Self.notFound
            answer.dependency = folder
            return answer
        case .tooLarge:
            var answer = Self.notFound
            answer.dependency = path
            return answer
        case .bytes(let bytes):
            return answer(bytes, at: path)
        case .file(let full):
            guard let bytes = BoundedFile.bytes(full, atMost: Self.largestFile).bytes else {
                var answer = Self.notFound
                answer.dependency = path
                return answer
            }
            return answer(bytes, at: path)
        }
    }

    /// The file `bytes` at `path`, an HTML page marked.
    private func answer(_ bytes: [UInt8], at path: String) -> Answer {
        let type = Self.contentType(of: path)
        let body = type.hasPrefix("text/html") ? marked(bytes, marks: marks(bytes, path)) : bytes
        return Answer(status: 200, contentType: type, body: body, dependency: path)
    }

    /// How many bytes answering `url` reads, at most `largestFile` (0 for what is not read
    /// from a file): what `AnswerBudget` holds back before the file is read.
    public func bodySize(of url: String) -> Int {
        guard Self.hostPage(for: url) == nil, let raw = rawPath(of: url), case .allowed(let decoded) = PathGuard.check(raw) else { return 0 }
        switch entry(Self.relative(decoded)) {
        case .bytes(let bytes): return bytes.count
        case .file(let full): return min(FileStatus.at(full)?.size ?? 0, Self.largestFile)
        case .image, .refused, .missing, .tooLarge: return 0
        }
    }

    /// What a decoded root-relative path is to a measured page.
    enum Entry {
        /// An image of a manifest, answered at this size.
        case image(PixelSize)
        /// A page as the rewrite would write it (`overlay`).
        case bytes([UInt8])
        /// A regular file of the site, at this full path, no larger than `largestFile`.
        case file(String)
        /// A file of the site larger than `largestFile`.
        case tooLarge(Int)
        /// Nothing there: the nearest existing folder above it (`img/`, `./`), when there is one
        /// the page may be answered from.
        case missing(folder: String?)
        /// Outside the root, or private.
        case refused
    }

    /// What `path` (decoded, relative to the root) is: the one rule answers, `read` and the
    /// dependency hash follow.
    func entry(_ path: String) -> Entry {
        guard PathContainment.escape(in: path) == nil, !privateFiles.hides(path) else { return .refused }
        if let bytes = overlay[path] { return .bytes(bytes) }
        if let size = imageSizes[path] { return .image(size) }
        let full = root + "/" + path
        guard let real = PathContainment.resolved(full) else { return .missing(folder: existingFolder(above: path)) }
        // Where a link leads counts, not only its own name: private means private.
        guard let inside = PathContainment.relativePath(ofCanonical: real, inside: root), !privateFiles.hides(inside) else { return .refused }
        guard let status = FileStatus.at(real), status.isRegularFile else { return .missing(folder: nil) }
        return status.size > Self.largestFile ? .tooLarge(status.size) : .file(full)
    }

    /// The nearest folder above `path` that exists inside the root and is not private, written
    /// with a trailing `/` (`./` for the root).
    private func existingFolder(above path: String) -> String? {
        var components = path.split(separator: "/").dropLast()
        while true {
            let folder = components.joined(separator: "/")
            if let real = PathContainment.resolved(folder.isEmpty ? root : root + "/" + folder) {
                guard let inside = PathContainment.relativePath(ofCanonical: real, inside: root), !privateFiles.hides(inside),
                      FileStatus.at(real)?.isFolder == true else { return nil }
                return folder.isEmpty ? "./" : folder + "/"
            }
            guard !components.isEmpty else { return nil }
            components.removeLast()
        }
    }

    /// The names in the folder `folder` (root-relative, with a trailing `/`; `./` for the root)
    /// that a page could be answered, sorted: a file appearing there changes them. The layout
    /// file is not counted: measuring writes it, and the next run would measure again.
    func names(inFolder folder: String) -> [[UInt8]] {
        let relative = folder == "./" ? "" : String(folder.dropLast())
        guard relative.isEmpty || (PathContainment.escape(in: relative) == nil && !privateFiles.hides(relative)) else { return [] }
        let names = (try? Folder.names(at: relative.isEmpty ? root : root + "/" + relative)) ?? []
        return names.filter { name in
            let text = String(decoding: name, as: UTF8.self)
            return text != LayoutFile.fileName && !privateFiles.hides((relative.isEmpty ? "" : relative + "/") + text)
        }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The bytes of the file at root-relative `path` as a page is answered them (before any
    /// marks); nil when it is missing, not a file, outside the root, private or larger than
    /// `largestFile`.
    public func read(_ path: String) -> [UInt8]? {
        switch entry(path) {
        case .bytes(let bytes): return bytes
        case .file(let full): return BoundedFile.bytes(full, atMost: Self.largestFile).bytes
        case .image, .refused, .missing, .tooLarge: return nil
        }
    }

    /// Whether `path` (root-relative, decoded) is a file of the site a page may be answered: an
    /// image of a manifest, or a file under the root that is not private. What the layout file
    /// may name.
    public func isSiteFile(_ path: String) -> Bool {
        switch entry(path) {
        case .image, .bytes, .file, .tooLarge: return true
        case .missing, .refused: return false
        }
    }

    /// The path of a URL of the site (under `origin` or `baseURL`) from the root, still
    /// percent-encoded, with its leading `/` and without query or fragment; nil for another
    /// origin.
    func rawPath(of url: String) -> String? {
        guard let prefix = sitePrefixes.first(where: { url.hasPrefix($0) }) else { return nil }
        var rest = url.dropFirst(prefix.count - 1)
        if let end = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        return String(rest)
    }

    /// A decoded request path (`/css/a.css`, `/`) as a path below the root, a folder's
    /// `index.html` for a path ending in `/`.
    private static func relative(_ decoded: String) -> String {
        var path = String(decoded.drop { $0 == "/" })
        if path.isEmpty || path.hasSuffix("/") { path += "index.html" }
        return path
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
