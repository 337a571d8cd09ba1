import DPPXCore
import Foundation

/// Measures one page in a `MeasuringTab`: loads it from the site's folder (every request
/// answered by `SiteResponder` through the Fetch domain) in the frame of a host page, then runs
/// `MeasureScript` at the ladder's coarse widths and at every width
/// `SizesFitter.refinements(of:)` asks for, round after round, until none is left: one call of
/// the script a round, which resizes the frame to each width in the page itself. (Resizing the
/// tab's viewport instead took two DevTools round trips and a trip through the browser process
/// a width: 13 ms a width, where the frame takes 1.5 ms on the benchmark's pages.)
struct PageMeasurer: Sendable {
    /// The browser's connection (another, when the browser had to be started again).
    var connection: DevToolsConnection
    let responder: SiteResponder
    let ladder: ViewportLadder
    /// Checking a rewrite: these widths only, ascending, each measured once the page has
    /// settled at it (`MeasureScript`'s `settle`); nil measures the ladder and refines it.
    var checking: [Int]? = nil
    /// Checking a rewrite: also measure the checking widths with classic scrollbars
    /// (`Outcome.classic`).
    var checksClassicScrollbars = false
    /// Checking a rewrite: also read each `<img>`'s computed style and its holder's at each
    /// width, and match the selectors of the page's scripts (`Outcome.styles`).
    var checksStyles = false
    /// Checking a rewrite: the pages sized by script (`LayoutFile.Page.settled`), checked at
    /// each width once the page's DOM is quiet, as they were measured: a slider's debounced
    /// resize handler runs before either side is read.
    var settledPages: Set<String> = []
    /// Checking a rewrite: measure the page as it would be written, the `@media` blocks of
    /// `image-set()`s a rewrite wrote in its stylesheets kept (measuring drops them, so a site
    /// measures the same before and after a rewrite).
    var measuresAsWritten = false

    /// What measuring a page gave: its layout and how many widths it was measured at.
    struct Outcome: Sendable {
        /// Without scrollbars taking room.
        var layout: LayoutFile.Page
        /// With classic scrollbars, when `checksClassicScrollbars`.
        var classic: LayoutFile.Page?
        var widths: Int
        /// The JavaScript errors the page threw (a missing third-party script, a bug of its
        /// own), at most `maximumScriptErrors`: a browser shows the page with them too, so it
        /// is measured as it stands and they are told as warnings.
        var scriptErrors: [String] = []
        /// With `checksStyles`: the images' computed styles, without scrollbars taking room.
        var styles: ImageStyles?
        /// Set when its load event never came: when it was measured instead.
        var withoutLoad: PageWarning.WithoutLoad?
        /// The stylesheets it links when none loaded, all of other origins (at most 3): it was
        /// measured without them.
        var otherOriginStylesheets: [String] = []

        /// What the page is told with.
        func warnings(page: String) -> [PageWarning] {
            var warnings: [PageWarning] = []
            if !scriptErrors.isEmpty { warnings.append(PageWarning(page: page, kind: .scriptErrors(scriptErrors))) }
            if let withoutLoad { warnings.append(PageWarning(page: page, kind: .noLoadEvent(withoutLoad))) }
            if !otherOriginStylesheets.isEmpty { warnings.append(PageWarning(page: page, kind: .noStylesheet(otherOriginStylesheets))) }
            return warnings
        }
    }

    /// Why a page was not measured, and, when the page's own doing (it comes back on every load
    /// of the same files), what the layout file keeps of it so it is not loaded again while
    /// nothing it loads changes.
    struct Failure: Error, Sendable {
        var error: MeasureError
        var record: LayoutFile.Failure?
    }

    /// A failure of the page's own doing, thrown while it is measured: why, in dppx's words
    /// for the layout file, and all of it for the terminal.
    private struct OwnFailure: Error {
        var reason: LayoutFile.Failure.Reason
        var message: String
    }

    /// The most script errors kept of one page.
    static let maximumScriptErrors = 3
    /// A page whose load event does not come is measured once nothing has loaded or changed in
    /// it for this long (`settle`).
    static let quietPeriod: Duration = .seconds(1)
    /// ...or this long after its document was parsed, whatever it still does.
    static let settleLimit: Duration = .seconds(10)

    /// Measures `page` (root-relative) in `tab`, giving up after `timeout` (the tab is then
    /// stuck: the caller closes it).
    func measure(_ page: String, in tab: MeasuringTab, timeout: Duration) async throws(Failure) -> Outcome {
        guard let bytes = responder.read(page) else {
            if case .tooLarge(let size) = responder.entry(page) {
                throw Failure(error: .page(page, "it is \(size) bytes, more than the \(SiteResponder.largestFile) a measured page is answered; split it, or leave it out of the pages measured"))
            }
            throw Failure(error: .page(page, "there is no such file under the root"))
        }
        let watcher = tab.watch(host: SiteResponder.hostURL(ofPage: page, height: ladder.height), page: SiteResponder.url(ofPage: page))
        /// What the layout file keeps of the page failed for `reason`.
        func record(_ reason: LayoutFile.Failure.Reason) -> LayoutFile.Failure {
            let dependencies = [page] + watcher.dependencies.subtracting([page]).sorted()
            return LayoutFile.Failure(hash: DependencyHash.of(dependencies, responder: responder, ladder: ladder),
                                      dependencies: dependencies, reason: reason,
                                      seconds: reason == .timedOut ? Int(timeout.components.seconds) : nil)
        }
        do {
            let outcome = try await withTimeout(timeout) {
                try await self.run(page, bytes: bytes, in: tab, watcher: watcher)
            }
            guard let outcome else {
                throw Failure(error: .page(page, "it did not load and measure within \(timeout.components.seconds) s (a script that never returns)"),
                              record: record(.timedOut))
            }
            return outcome
        } catch let failure as Failure {
            throw failure
        } catch let failure as OwnFailure {
            throw Failure(error: .page(page, failure.message), record: record(failure.reason))
        } catch let error as MeasureError {
            if case .page = error { throw Failure(error: error) }
            throw Failure(error: .page(page, error.description))
        } catch {
            throw Failure(error: .page(page, "\(error)"))
        }
    }

    private func run(_ page: String, bytes: [UInt8], in tab: MeasuringTab, watcher: PageWatcher) async throws -> Outcome {
        let session = tab.session
        let host = SiteResponder.hostURL(ofPage: page, height: ladder.height)
        let text = PageText(page: page, bytes: bytes, responder: responder, loaded: { watcher.dependencies })
        let navigation = try await connection.send("Page.navigate", ["url": .string(host)], session: session)
        if let error = navigation["errorText"]?.string, !error.isEmpty { throw MeasureError.page(page, "it failed to load: \(error)") }
        let withoutLoad = try await settle(watcher, in: tab)
        try Task.checkCancellation()
        try check(watcher, page: page)
        if withoutLoad != nil { await tab.takeLoadedElements() }
        let unstyledBy = try checkStylesheets(watcher)
        // dppx's scripts run in its isolated world of the page's frame, whose marks are those
        // the responder wrote.
        let context: Int
        do {
            context = try await tab.measuringContext(page: page)
        } catch {
            throw Self.ownFailure(error)
        }
        let offsets = responder.marks(bytes, page).imageTags.filter { SiteResponder.isImageTag(bytes, at: $0) }
        let selectors = checksStyles ? scriptSelectors(of: page, bytes: bytes, loaded: watcher.dependencies) : []
        let installed = try await connection.send("Runtime.evaluate", [
            "expression": .string(MeasureScript.install(attribute: SiteResponder.offsetAttribute, offsets: offsets,
                                                        selectors: selectors.map(\.selector))),
            "contextId": .number(Double(context)), "returnByValue": true,
        ], session: session)
        if let details = installed["exceptionDetails"] {
            throw MeasureError.page(page, "the measuring script could not be put in it: \(details["exception"]?["description"]?.string ?? details.text)")
        }

        var samples = Samples(text: text, scriptSelectors: selectors)
        var classicSamples: Samples?
        var emBreakpoints: [Double] = []
        var scriptSized = false
        if let checking {
            if checksClassicScrollbars { classicSamples = Samples(text: text) }
            try await measure(page, at: checking, session: session, context: context, into: &samples, classic: &classicSamples, settling: true,
                              quiet: settledPages.contains(page) ? MeasureScript.quietPeriod : 0)
        } else {
            let named = try await namedBreakpoints(session: session, context: context)
            emBreakpoints = named.em
            let start = Array(Set(ladder.coarse + named.viewports)).sorted()
            var none: Samples?
            // Settled, from every other width of the ladder (each settled width waits for a
            // quiet DOM): breakpoints are then refined as in the sweep.
            func rounds(settling: Bool, quiet: Int = 0) async throws {
                var pending = settling ? Array(Set(ladder.checking + named.viewports)).sorted() : start
                for _ in 0...ladder.maximumRounds where !pending.isEmpty {
                    try await measure(page, at: pending, session: session, context: context, into: &samples, classic: &none,
                                      settling: settling, quiet: quiet)
                    pending = samples.refinements(resolution: ladder.resolution)
                }
            }
            try await rounds(settling: false)
            // A page with scripts may size boxes from a resize handler, a ResizeObserver or a
            // matchMedia listener, which the sweep (every width in one synchronous call) never
            // lets run: a slider whose script sets each slide to its width is measured at its
            // load width everywhere. A few widths measured after the page settles there tell;
            // where a box differs, every width is measured that way.
            if ScriptedLayout.hasScripts(bytes) {
                var settled = Samples(text: text)
                let probes = ScriptedLayout.probeWidths(in: ladder)
                try await measure(page, at: probes, session: session, context: context, into: &settled, classic: &none,
                                  settling: true, quiet: MeasureScript.quietPeriod)
                if ScriptedLayout.differs(swept: samples, settled: settled, at: probes) {
                    scriptSized = true
                    samples = Samples(text: text)
                    try await rounds(settling: true, quiet: MeasureScript.quietPeriod)
                }
            }
        }
        try check(watcher, page: page)
        do {
            try await tab.checkFrames(page: page)
        } catch {
            throw Self.ownFailure(error)
        }
        let dependencies = [page] + watcher.dependencies.subtracting([page]).sorted()
        let hash = DependencyHash.of(dependencies, responder: responder, ladder: ladder)
        func layout(_ samples: Samples) -> LayoutFile.Page {
            var page = LayoutFile.Page(hash: hash, dependencies: dependencies, viewportHeight: Double(ladder.height),
                                       scrollbars: samples.scrollbarsShown ? "shown" : "hidden",
                                       images: samples.images, backgrounds: samples.backgrounds, heights: samples.heights,
                                       loadedElements: samples.loadedElements, emBreakpoints: emBreakpoints.isEmpty ? nil : emBreakpoints)
            page.settled = scriptSized ? true : nil
            return page
        }
        var errors: [String] = []
        for error in watcher.errors where !errors.contains(error) && errors.count < Self.maximumScriptErrors { errors.append(error) }
        return Outcome(layout: layout(samples), classic: classicSamples.map(layout),
                       widths: samples.viewports.count + (classicSamples?.viewports.count ?? 0), scriptErrors: errors,
                       styles: checksStyles ? samples.styles : nil, withoutLoad: withoutLoad, otherOriginStylesheets: unstyledBy)
    }

    /// The selectors of the page's inline scripts and of the site's script files it loaded
    /// that name an element's place among its parent's children (`ScriptSelectors`).
    private func scriptSelectors(of page: String, bytes: [UInt8], loaded: Set<String>) -> [(selector: String, script: String)] {
        let inline = ScriptSelectors.inlineScripts(of: bytes).map { (name: page, source: Array($0)) }
        let files = loaded.sorted().filter { $0.lowercased().hasSuffix(".js") || $0.lowercased().hasSuffix(".mjs") }.compactMap { path in
            responder.read(path).map { (name: path, source: $0) }
        }
        return ScriptSelectors.of(inline + files)
    }

    /// Waits for the page's load event; nil once it came. When it does not come (a frame, a
    /// request or a document that never finishes: a page's `document.open()` never closed),
    /// the page is measured as it stands once its document is parsed and nothing has loaded
    /// (no request of any frame of it) or changed (no mutation of its document) for
    /// `quietPeriod`, and at the latest `settleLimit` after it was parsed: what a browser shows
    /// then too. What a page does before its document is parsed (a script that never returns)
    /// only the timeout ends.
    private func settle(_ watcher: PageWatcher, in tab: MeasuringTab) async throws -> PageWarning.WithoutLoad? {
        await watcher.waitForContent()
        if watcher.isLoaded { return nil }
        let clock = ContinuousClock()
        let parsed = clock.now
        var seen = (requests: watcher.requests, changes: await tab.changes())
        var lastChange = clock.now
        while true {
            if try await withTimeout(.milliseconds(100), { await watcher.waitForLoad() }) != nil, watcher.isLoaded { return nil }
            try Task.checkCancellation()
            let now = (requests: watcher.requests, changes: await tab.changes())
            if now.requests != seen.requests || now.changes != seen.changes || now.changes == nil {
                seen = now
                lastChange = clock.now
            } else if clock.now - lastChange >= Self.quietPeriod {
                return .quiet(after: clock.now - parsed)
            }
            if clock.now - parsed >= Self.settleLimit { return .stillChanging(after: clock.now - parsed) }
        }
    }

    /// The viewports around every width the page's media queries name, and the widths they
    /// name in `em` or `rem` (`BreakpointScript`).
    private func namedBreakpoints(session: String, context: Int) async throws -> (viewports: [Int], em: [Double]) {
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(BreakpointScript.source), "contextId": .number(Double(context)), "returnByValue": true,
        ], session: session)
        guard let text = answer["result"]?["value"]?.string else { return ([], []) }
        let widths = BreakpointScript.widths(fromAnswer: text)
        return (BreakpointScript.viewports(for: widths.named, in: ladder), widths.em)
    }

    /// `error` of the tab's frames, as the page's own doing when it took the window over.
    private static func ownFailure(_ error: MeasureError) -> any Error {
        guard case .page(_, let message) = error, message == MeasuringTab.tookOver else { return error }
        return OwnFailure(reason: .navigated, message: message)
    }

    /// A navigation dppx refused fails the page. (A script error does not: the page is measured
    /// as it stands, and the errors are told as warnings.)
    private func check(_ watcher: PageWatcher, page: String) throws(OwnFailure) {
        if let refused = watcher.refusals.first { throw OwnFailure(reason: .navigated, message: refused) }
    }

    /// A page that links stylesheets of which none loaded is not measured as it is when one of
    /// them is of the site (of the measuring origin, or under the site's base URL): unstyled,
    /// every box would be another. When all are of other origins, it is measured, and they are
    /// named in a warning (an absolute URL of the site that no base URL names looks so).
    private func checkStylesheets(_ watcher: PageWatcher) throws(OwnFailure) -> [String] {
        let sheets = watcher.stylesheets
        guard !sheets.isEmpty, sheets.allSatisfy({ $0.failure != nil }) else { return [] }
        var named: [String] = []
        for (url, failure) in sheets where failure != PageWatcher.otherOrigin {
            let line = "\(responder.rootPath(of: url) ?? url): \(failure ?? "")"
            if !named.contains(line), named.count < 3 { named.append(line) }
        }
        guard named.isEmpty else {
            throw OwnFailure(reason: .unstyled, message: "none of the stylesheets it links on the site loaded (\(named.joined(separator: "; "))): measured unstyled, every box would be another")
        }
        var others: [String] = []
        for (url, _) in sheets where !others.contains(url) && others.count < 3 { others.append(url) }
        return others
    }

    /// Measures the page at `widths` in one call of `MeasureScript`, which resizes the frame to
    /// each in turn (`settling`: and waits there for the page to settle), with no scrollbar
    /// taking room into `samples` and, when `classic` is given, with classic ones into it.
    private func measure(_ page: String, at widths: [Int], session: String, context: Int, into samples: inout Samples, classic: inout Samples?,
                         settling: Bool = false, quiet: Int = 0) async throws {
        let modes: [Scrollbars] = classic == nil ? [.hidden] : [.hidden, .classic]
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(MeasureScript.call(widths: widths, settle: settling, quiet: quiet, scrollbars: modes,
                                                     styles: checksStyles && settling, asWritten: measuresAsWritten,
                                                     imageSets: checking != nil)),
            "contextId": .number(Double(context)), "awaitPromise": true, "returnByValue": true,
        ], session: session)
        let place = "at viewports \(widths.first ?? 0) to \(widths.last ?? 0) px"
        if let details = answer["exceptionDetails"] {
            throw MeasureError.browser("the measuring script failed \(place): \(details["exception"]?["description"]?.string ?? details.text)")
        }
        guard let text = answer["result"]?["value"]?.string, let result = JSONValue(parsing: Array(text.utf8)),
              let reports = result["reports"]?.array, reports.count == widths.count * modes.count else {
            throw MeasureError.browser("the measuring script returned no report \(place)")
        }
        do throws(LayoutLimits.Problem) {
            for (index, width) in widths.enumerated() {
                try samples.add(reports[index * modes.count], viewport: Double(width))
                if modes.count > 1 { try classic?.add(reports[index * modes.count + 1], viewport: Double(width)) }
            }
            try samples.addStyles(result["styles"], named: result["named"], rules: result["rules"], matched: result["matched"])
        } catch {
            throw OwnFailure(reason: .unmeasurable, message: "it reported a measurement no layout has: \(error) (a transform or size far beyond any screen, or a script writing into the page's marks); fix the page, or leave it out of the pages measured")
        }
    }
}
