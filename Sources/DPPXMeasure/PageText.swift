import DPPXCore

/// The text a measured page's reports may carry into the layout file, which is published with
/// the site: only what the site's own files already say. A page is the site's own code and can
/// write anything it read into an element, a URL or a rule; that reaches the layout file only
/// as a path of a real file of the site, or as words the site's own files already hold.
///
/// - an `<img>`'s `src` is the one its tag has in the page's source (`PageMarks.imageSources`),
///   at an offset the responder marked; a reported offset that is no marked tag is refused;
/// - a background's URL and stylesheet are paths of files the site answers (`SiteResponder
///   .isSiteFile`), else the layer, or its stylesheet and selector, are left out;
/// - a background's element path and rule selector keep only words (names, ids, classes)
///   written in the page, the stylesheet named or another page, stylesheet or script of the
///   site the page loaded (a web component's name, a rule a script of the site inserts), or
///   HTML's own element names.
struct PageText {
    /// The page measured, relative to the root.
    let page: String
    let responder: SiteResponder
    /// The marks the responder gave the page's source.
    let marks: PageMarks
    private let markedTags: Set<Int>
    /// The files of the site the page has loaded so far (`PageWatcher.dependencies`).
    private let loaded: @Sendable () -> Set<String>
    /// The words of each file read so far, lowercased.
    private var words: [String: Set<Substring>] = [:]

    /// The text of `page` (its source `bytes`) as `responder` answers it; `loaded`: the files it
    /// has loaded so far.
    init(page: String, bytes: [UInt8], responder: SiteResponder, loaded: @escaping @Sendable () -> Set<String> = { [] }) {
        self.page = page
        self.responder = responder
        self.marks = responder.marks(bytes, page)
        self.markedTags = Set(marks.imageTags)
        self.loaded = loaded
    }

    /// Whether an `<img` tag was marked at `offset`.
    func isMarkedTag(_ offset: Int) -> Bool { markedTags.contains(offset) }

    /// The `src` of the `<img` tag at `offset` as the page's source writes it ("" without one).
    func source(ofImageAt offset: Int) -> String { marks.imageSources[offset] ?? "" }

    /// The root-relative path of `url` (under the measuring origin or the site's base URL) when
    /// it names a file of the site; nil otherwise.
    func sitePath(of url: String) -> String? {
        guard let path = responder.rootPath(of: url), responder.isSiteFile(path) else { return nil }
        return path
    }

    /// The size the image at `url` (under the measuring origin) is answered at, when it is an
    /// image of a manifest: its CSS size as dppx knows it (a fluid master's size, a density
    /// image's 1x box), which is preferred over the natural size the page reports. A lookup,
    /// no file system: it is asked for every `<img>` at every viewport.
    func imageSize(of url: String) -> PixelSize? {
        SiteResponder.path(of: url).flatMap { responder.imageSizes[$0] }
    }

    /// Whether every word of `text` is written in the file at `path` (root-relative), in another
    /// page, stylesheet or script the page loaded, or is one of HTML's element names or a number:
    /// a selector or element path made of the site's own words, not of words a script made up
    /// (from what it read, say). The files other than `path` are read only when a word is not
    /// in `path`.
    mutating func isWritten(_ text: String, in path: String) -> Bool {
        var missing = Self.words(in: text).filter { word in
            !Self.elementNames.contains(word) && !word.allSatisfy { $0.isNumber || $0 == "n" }
        }
        for file in [path] + loaded().subtracting([path]).sorted() where !missing.isEmpty {
            guard file == path || Self.textTypes.contains(where: file.lowercased().hasSuffix) else { continue }
            let known = words(of: file)
            missing.removeAll { known.contains($0) }
        }
        return missing.isEmpty
    }

    /// The files whose words count: pages, stylesheets and scripts.
    private static let textTypes = [".html", ".htm", ".css", ".js", ".mjs"]

    /// The words of the file at `path` as a page is answered it, read once.
    private mutating func words(of path: String) -> Set<Substring> {
        if let known = words[path] { return known }
        let found = Set(Self.words(in: responder.read(path).map { String(decoding: $0, as: UTF8.self) } ?? ""))
        words[path] = found
        return found
    }

    /// Runs of letters, digits, `-` and `_`, lowercased: the words of a selector (`div`,
    /// `nth-child`, `hero`), whatever quotes and spaces the browser wrote around them.
    static func words(in text: String) -> [Substring] {
        text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }

    /// HTML's element names, which a parser adds (`tbody`) or a script creates without the page
    /// writing them, and the words of an element path.
    static let elementNames: Set<Substring> = Set("""
        html head body main header footer nav section article aside div span p a img picture source figure figcaption \
        ul ol li dl dt dd table thead tbody tfoot tr td th caption colgroup col form label input button select option \
        textarea fieldset legend h1 h2 h3 h4 h5 h6 blockquote pre code em strong b i u s small sub sup br hr mark q \
        cite abbr time address details summary dialog template slot canvas svg video audio iframe object embed noscript \
        nth-child
        """.split(whereSeparator: \.isWhitespace))
}
