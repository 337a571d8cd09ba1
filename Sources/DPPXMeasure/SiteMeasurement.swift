import DPPXCore
import DPPXFiles
import Foundation
import NIOConcurrencyHelpers

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
    /// Checking rewritten pages: also measure them with classic scrollbars (`Outcome.classic`).
    public var checksClassicScrollbars = false
    /// Checking rewritten pages: also read each `<img>`'s computed style and its holder's, and
    /// match the selectors of the page's scripts (`Outcome.styles`): what checking `<picture>`
    /// wrappers needs.
    public var checksStyles = false
    /// Checking rewritten pages: those sized by script (`LayoutFile.Page.settled`), checked at
    /// each width once their DOM is quiet, as they were measured.
    public var settledPages: Set<String> = []
    /// Checking rewritten pages: measure them as they would be written, the `@media` blocks of
    /// `image-set()`s the rewrite wrote kept, each layer painted from an `image-set()` read as
    /// the file chosen (its URL, and its natural size at that option's resolution). Measuring
    /// (and checking the untouched side) drops dppx's blocks.
    public var measuresAsWritten = false

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
        /// Pages that could not be measured, each named with why: this run, or an earlier one
        /// whose failure the layout file recorded (nothing the page loads changed since).
        public var failures: [MeasureError] = []
        /// Of `failures`, the pages whose recorded failure held: not loaded this run.
        public var failedBefore: [String] = []
        /// What was wrong with the layout file as found (`read(_:problems:)`); the pages
        /// concerned are measured again.
        public var warnings: [MeasureError] = []
        /// Pages measured as they stand although their scripts threw, their load event never
        /// came or none of their stylesheets loaded.
        public var pageWarnings: [PageWarning] = []
        /// Viewport widths measured, over all pages.
        public var widths = 0
        /// Whether the layout file was written.
        public var written = false
        /// The layout, as written (or as it was).
        public var layout = LayoutFile()
        /// Checking with `checksClassicScrollbars`: each measured page's layout with classic
        /// scrollbars.
        public var classic: [String: LayoutFile.Page] = [:]
        /// Checking with `checksStyles`: each measured page's `<img>` styles.
        public var styles: [String: ImageStyles] = [:]
    }

    /// Measures what changed in a browser of its own; `executable` is asked for only when a page
    /// must be measured.
    public func run(browser executable: @escaping @Sendable () throws(MeasureError) -> String) async throws(MeasureError) -> Outcome {
        let shared = SharedBrowser(executable: executable)
        do {
            let outcome = try await run(in: shared)
            await shared.stop()
            return outcome
        } catch {
            await shared.stop()
            throw error
        }
    }

    /// Measures what changed in `shared`'s browser (started only when a page must be
    /// measured), which the caller stops.
    public func run(in shared: SharedBrowser) async throws(MeasureError) -> Outcome {
        var outcome = Outcome()
        let previous = reusesRecorded ? Self.read(output, problems: &outcome.warnings) : LayoutFile()
        var layout = LayoutFile()
        var stale: [String] = []
        for page in pages {
            if let recorded = previous.pages[page],
               recorded.hash == DependencyHash.of(recorded.dependencies, responder: responder, ladder: ladder) {
                layout.pages[page] = recorded
                outcome.unchanged.append(page)
            } else if let failed = previous.failed[page], failed.holds(timeout: Int(timeout.components.seconds)),
                      failed.hash == DependencyHash.of(failed.dependencies, responder: responder, ladder: ladder) {
                // It fails the same way again: told from the record, with no browser.
                layout.failed[page] = failed
                outcome.failedBefore.append(page)
                outcome.failures.append(.page(page, Self.recordedFailure(failed)))
            } else {
                stale.append(page)
            }
        }
        if !stale.isEmpty {
            let browser = try await shared.browser()
            let measurer = PageMeasurer(connection: browser.connection, responder: responder, ladder: ladder, checking: checking,
                                        checksClassicScrollbars: checksClassicScrollbars, checksStyles: checksStyles,
                                        settledPages: settledPages, measuresAsWritten: measuresAsWritten)
            let results = await Self.measure(stale, with: measurer, in: shared, timeout: timeout, parallel: parallelTabs)
            if Browser.interrupted { throw .browser("interrupted") }
            for (page, result) in results {
                switch result {
                case .success(let measured):
                    layout.pages[page] = measured.layout
                    outcome.classic[page] = measured.classic
                    outcome.styles[page] = measured.styles
                    outcome.measured.append(page)
                    outcome.widths += measured.widths
                    outcome.pageWarnings += measured.warnings(page: page)
                case .failure(let failure):
                    outcome.failures.append(failure.error)
                    if checking == nil { layout.failed[page] = failure.record }
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

    /// Why a page whose failure the layout file recorded is not measured: `reason`, told again.
    static func recordedFailure(_ failure: LayoutFile.Failure) -> String {
        let explanation = failure.reason == .timedOut && failure.seconds != nil
            ? "it did not load and measure within \(failure.seconds ?? 0) s (a script that never returns)" : failure.reason.explanation
        let retry = failure.reason == .timedOut ? "dppx measure with a longer --timeout, a change to it" : "a change to it"
        return "\(explanation), when it was last measured; nothing it loads has changed since, so it was not loaded again (\(retry) or removing its entry from \(LayoutFile.fileName)'s failed measures it again)"
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
        var problems: [MeasureError] = []
        return read(path, problems: &problems)
    }

    /// The layout file at `path`, its numbers checked (`LayoutLimits`): the file is data in the
    /// repository, and a hand-edited sample of 1e20 or 80,000 samples on one image would reach
    /// the fitter. A page holding a number no layout has is left out (it is measured again) and
    /// named in `problems`, as is a file that is not JSON of a layout; a missing file or one of
    /// another version is simply empty.
    public static func read(_ path: String, problems: inout [MeasureError]) -> LayoutFile {
        guard (try? FileStatus(path: path)) != nil else { return LayoutFile() }
        let checked: LayoutFile.Checked
        do {
            checked = try LayoutFile.decode(try AtomicFile.read(path))
        } catch {
            problems.append(.layoutFile(path, "\(error); every page is measured again and the file written anew"))
            return LayoutFile()
        }
        for (page, problem) in checked.refused.sorted(by: { $0.key < $1.key }) {
            problems.append(.layoutFile(path, "\(problem); \(page) is measured again and its entry written anew"))
        }
        return checked.layout
    }

    /// Measures `pages` in `parallel` tabs, each taking the next page when it is done with one;
    /// the results in the pages' order. When the browser goes away mid-run (it crashed, or was
    /// killed), another is started and the pages left are measured in it; a page whose
    /// measurement the browser's end interrupted is measured again, once.
    private static func measure(_ pages: [String], with first: PageMeasurer, in shared: SharedBrowser, timeout: Duration,
                                parallel: Int) async -> [(String, Result<PageMeasurer.Outcome, PageMeasurer.Failure>)] {
        let queue = NIOLockedValueBox((next: 0, again: [Int](), retried: Set<Int>()))
        let results = NIOLockedValueBox([Result<PageMeasurer.Outcome, PageMeasurer.Failure>?](repeating: nil, count: pages.count))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<min(max(1, parallel), pages.count) {
                group.addTask {
                    var tab: MeasuringTab?
                    var measurer = first
                    while let index = queue.withLockedValue({ queue -> Int? in
                        if !queue.again.isEmpty { return queue.again.removeFirst() }
                        defer { queue.next += 1 }
                        return queue.next < pages.count ? queue.next : nil
                    }) {
                        var result = await measure(pages[index], with: measurer, in: &tab, timeout: timeout)
                        if case .failure = result, !Browser.interrupted, let ended = measurer.connection.closedReason {
                            tab = nil
                            do throws(MeasureError) {
                                measurer.connection = try await shared.replacing(measurer.connection).connection
                                let again = queue.withLockedValue { queue in
                                    guard queue.retried.insert(index).inserted else { return false }
                                    queue.again.append(index)
                                    return true
                                }
                                if again { continue }
                            } catch {
                                result = .failure(PageMeasurer.Failure(error: .page(pages[index], "\(ended), and no other browser could be started: \(error)")))
                            }
                        }
                        results.withLockedValue { $0[index] = result }
                    }
                    await tab?.close()
                }
            }
        }
        return zip(pages, results.withLockedValue { $0 }).map { page, result in
            (page, result ?? .failure(PageMeasurer.Failure(error: .page(page, "it was not measured"))))
        }
    }
    /// Measures `page` in `tab`, opening one when there is none. A tab whose page failed is
    /// closed (the page may have left it stuck in a script): the next page opens another.
    private static func measure(_ page: String, with measurer: PageMeasurer, in tab: inout MeasuringTab?,
                                timeout: Duration) async -> Result<PageMeasurer.Outcome, PageMeasurer.Failure> {
        let open: MeasuringTab
        if let tab { open = tab } else {
            do throws(MeasureError) {
                open = try await MeasuringTab.open(connection: measurer.connection, responder: measurer.responder,
                                                   width: measurer.ladder.highest, height: measurer.ladder.height)
            } catch {
                if case .page = error { return .failure(PageMeasurer.Failure(error: error)) }
                return .failure(PageMeasurer.Failure(error: .page(page, error.description)))
            }
        }
        tab = open
        do throws(PageMeasurer.Failure) {
            return .success(try await measurer.measure(page, in: open, timeout: timeout))
        } catch {
            await open.close()
            tab = nil
            return .failure(error)
        }
    }
}
