import DPPXCore
import DPPXFiles
import Foundation

/// Measures a site's pages in one headless Chromium, a few tabs at a time, and keeps the
/// results in the layout file. A page whose dependencies hash as recorded is not measured
/// again; the browser is started only when some page needs it, and the file written only
/// when its bytes change.
public struct SiteMeasurement: Sendable {
    /// Pages, relative to the root, with `/`.
    public var pages: [String]
    public var responder: SiteResponder
    /// Where the layout file is.
    public var output: String
    public var ladder = ViewportLadder()
    /// How long one page may take to load and be measured.
    public var timeout: Duration = .seconds(60)
    /// Tabs measured at once.
    public var parallelTabs = 2
    /// Whether a page whose recorded layout still holds keeps it (false: every page is
    /// measured, as checking a rewrite needs).
    public var reusesRecorded = true
    /// Whether the layout file is written (false: the caller writes it, after checking).
    public var writesLayoutFile = true
    /// Checking rewritten pages: measure at these widths only, ascending, each after the page
    /// settles there (its images loaded for the width), instead of the refined ladder. Pages
    /// measured so are hashed as the ladder's, so the layout they give holds on the next run.
    public var checking: [Int]?

    public init(pages: [String], responder: SiteResponder, output: String) {
        self.pages = pages
        self.responder = responder
        self.output = output
    }

    /// What a run did.
    public struct Outcome: Sendable {
        /// Pages measured, and pages whose recorded layout still held.
        public var measured: [String] = []
        public var unchanged: [String] = []
        /// Pages that could not be measured, each named with why.
        public var failures: [MeasureError] = []
        /// Viewport widths measured, over all pages.
        public var widths = 0
        /// Whether the layout file was written.
        public var written = false
        /// The layout, as written (or as it was).
        public var layout = LayoutFile()
    }

    /// Measures what changed; `browser` is asked for only when a page must be measured.
    public func run(browser executable: @Sendable () throws(MeasureError) -> String) async throws(MeasureError) -> Outcome {
        var outcome = Outcome()
        let previous = reusesRecorded ? Self.read(output) : LayoutFile()
        var layout = LayoutFile()
        var stale: [String] = []
        for page in pages {
            if let recorded = previous.pages[page],
               recorded.hash == DependencyHash.of(recorded.dependencies, responder: responder, ladder: ladder) {
                layout.pages[page] = recorded
                outcome.unchanged.append(page)
            } else {
                stale.append(page)
            }
        }
        if !stale.isEmpty {
            let browser = try await Browser.start(executable: try executable())
            let measurer = PageMeasurer(connection: browser.connection, responder: responder, ladder: ladder, checking: checking)
            let results = await Self.measure(stale, with: measurer, timeout: timeout, parallel: parallelTabs)
            await browser.stop()
            if Browser.interrupted { throw .browser("interrupted") }
            for (page, result) in results {
                switch result {
                case .success(let measured):
                    layout.pages[page] = measured.layout
                    outcome.measured.append(page)
                    outcome.widths += measured.widths
                case .failure(let error):
                    outcome.failures.append(error)
                }
            }
        }
        outcome.layout = layout
        guard writesLayoutFile else { return outcome }
        let bytes = Self.encoded(layout)
        do {
            outcome.written = try AtomicFile.writeIfChanged(bytes, to: output)
        } catch {
            throw .layoutFile(output, "could not be written: \(error)")
        }
        return outcome
    }

    /// The layout file as written: sorted keys, slashes unescaped, no indentation (samples are
    /// most of it), a final newline.
    public static func encoded(_ layout: LayoutFile) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(layout)) ?? Data()) + [UInt8(ascii: "\n")]
    }

    /// The layout file at `path`; empty when it is missing, unreadable or of another version
    /// (every page is then measured).
    public static func read(_ path: String) -> LayoutFile {
        guard let bytes = try? AtomicFile.read(path),
              let layout = try? JSONDecoder().decode(LayoutFile.self, from: Data(bytes)),
              layout.version == LayoutFile.currentVersion else { return LayoutFile() }
        return layout
    }

    /// Measures `pages`, `parallel` at a time, each in a tab of its own; the results in the
    /// pages' order.
    private static func measure(_ pages: [String], with measurer: PageMeasurer, timeout: Duration,
                                parallel: Int) async -> [(String, Result<PageMeasurer.Outcome, MeasureError>)] {
        var results = [Result<PageMeasurer.Outcome, MeasureError>?](repeating: nil, count: pages.count)
        await withTaskGroup(of: (Int, Result<PageMeasurer.Outcome, MeasureError>).self) { group in
            var started = 0
            while started < pages.count || !group.isEmpty {
                while started < pages.count, started - results.lazy.filter({ $0 != nil }).count < max(1, parallel) {
                    let index = started, page = pages[index]
                    group.addTask { (index, await Self.result(of: page, with: measurer, timeout: timeout)) }
                    started += 1
                }
                if let (index, result) = await group.next() { results[index] = result }
            }
        }
        return zip(pages, results).map { page, result in
            (page, result ?? .failure(.page(page, "it was not measured")))
        }
    }

    /// Measuring one page, its failure as a value.
    private static func result(of page: String, with measurer: PageMeasurer, timeout: Duration) async -> Result<PageMeasurer.Outcome, MeasureError> {
        do {
            return .success(try await measurer.measure(page, timeout: timeout))
        } catch {
            return .failure(error)
        }
    }
}
