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
    }

    /// The most script errors kept of one page.
    static let maximumScriptErrors = 3

    /// Measures `page` (root-relative) in `tab`, giving up after `timeout` (the tab is then
    /// stuck: the caller closes it).
    func measure(_ page: String, in tab: MeasuringTab, timeout: Duration) async throws(MeasureError) -> Outcome {
        guard let bytes = responder.read(page) else {
            if case .tooLarge(let size) = responder.entry(page) {
                throw .page(page, "it is \(size) bytes, more than the \(SiteResponder.largestFile) a measured page is answered; split it, or leave it out of the pages measured")
            }
            throw .page(page, "there is no such file under the root")
        }
        do {
            let outcome = try await withTimeout(timeout) {
                try await self.run(page, bytes: bytes, in: tab)
            }
            guard let outcome else {
                throw MeasureError.page(page, "it did not load and measure within \(timeout.components.seconds) s (a script that never ends, or a load that never finishes)")
            }
            return outcome
        } catch let error as MeasureError {
            if case .page = error { throw error }
            throw .page(page, error.description)
        } catch {
            throw .page(page, "\(error)")
        }
    }

    private func run(_ page: String, bytes: [UInt8], in tab: MeasuringTab) async throws -> Outcome {
        let session = tab.session
        let host = SiteResponder.hostURL(ofPage: page, height: ladder.height)
        let watcher = tab.watch(host: host, page: SiteResponder.url(ofPage: page))
        let text = PageText(page: page, bytes: bytes, responder: responder, loaded: { watcher.dependencies })
        let navigation = try await connection.send("Page.navigate", ["url": .string(host)], session: session)
        if let error = navigation["errorText"]?.string, !error.isEmpty { throw MeasureError.page(page, "it failed to load: \(error)") }
        await watcher.waitForLoad()
        try Task.checkCancellation()
        try check(watcher, page: page)
        // dppx's scripts run in its isolated world of the page's frame, whose marks are those
        // the responder wrote.
        let context = try await tab.measuringContext(page: page)
        let offsets = responder.marks(bytes, page).imageTags.filter { SiteResponder.isImageTag(bytes, at: $0) }
        let installed = try await connection.send("Runtime.evaluate", [
            "expression": .string(MeasureScript.install(attribute: SiteResponder.offsetAttribute, offsets: offsets)),
            "contextId": .number(Double(context)), "returnByValue": true,
        ], session: session)
        if let details = installed["exceptionDetails"] {
            throw MeasureError.page(page, "the measuring script could not be put in it: \(details["exception"]?["description"]?.string ?? details.text)")
        }

        var samples = Samples(text: text)
        var classicSamples: Samples?
        var emBreakpoints: [Double] = []
        if let checking {
            if checksClassicScrollbars { classicSamples = Samples(text: text) }
            try await measure(page, at: checking, session: session, context: context, into: &samples, classic: &classicSamples, settling: true)
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
                    samples = Samples(text: text)
                    try await rounds(settling: true, quiet: MeasureScript.quietPeriod)
                }
            }
        }
        try check(watcher, page: page)
        try await tab.checkFrames(page: page)
        let dependencies = [page] + watcher.dependencies.subtracting([page]).sorted()
        let hash = DependencyHash.of(dependencies, responder: responder, ladder: ladder)
        func layout(_ samples: Samples) -> LayoutFile.Page {
            LayoutFile.Page(hash: hash, dependencies: dependencies, viewportHeight: Double(ladder.height),
                            scrollbars: samples.scrollbarsShown ? "shown" : "hidden",
                            images: samples.images, backgrounds: samples.backgrounds, heights: samples.heights,
                            loadedElements: samples.loadedElements, emBreakpoints: emBreakpoints.isEmpty ? nil : emBreakpoints)
        }
        var errors: [String] = []
        for error in watcher.errors where !errors.contains(error) && errors.count < Self.maximumScriptErrors { errors.append(error) }
        return Outcome(layout: layout(samples), classic: classicSamples.map(layout),
                       widths: samples.viewports.count + (classicSamples?.viewports.count ?? 0), scriptErrors: errors)
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

    /// A navigation dppx refused fails the page. (A script error does not: the page is measured
    /// as it stands, and the errors are told as warnings.)
    private func check(_ watcher: PageWatcher, page: String) throws(MeasureError) {
        if let refused = watcher.refusals.first { throw .page(page, refused) }
    }

    /// Measures the page at `widths` in one call of `MeasureScript`, which resizes the frame to
    /// each in turn (`settling`: and waits there for the page to settle), with no scrollbar
    /// taking room into `samples` and, when `classic` is given, with classic ones into it.
    private func measure(_ page: String, at widths: [Int], session: String, context: Int, into samples: inout Samples, classic: inout Samples?,
                         settling: Bool = false, quiet: Int = 0) async throws {
        let modes: [Scrollbars] = classic == nil ? [.hidden] : [.hidden, .classic]
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(MeasureScript.call(widths: widths, settle: settling, quiet: quiet, scrollbars: modes)),
            "contextId": .number(Double(context)), "awaitPromise": true, "returnByValue": true,
        ], session: session)
        let place = "at viewports \(widths.first ?? 0) to \(widths.last ?? 0) px"
        if let details = answer["exceptionDetails"] {
            throw MeasureError.browser("the measuring script failed \(place): \(details["exception"]?["description"]?.string ?? details.text)")
        }
        guard let text = answer["result"]?["value"]?.string, let reports = JSONValue(parsing: Array(text.utf8))?.array,
              reports.count == widths.count * modes.count else {
            throw MeasureError.browser("the measuring script returned no report \(place)")
        }
        do throws(LayoutLimits.Problem) {
            for (index, width) in widths.enumerated() {
                try samples.add(reports[index * modes.count], viewport: Double(width))
                if modes.count > 1 { try classic?.add(reports[index * modes.count + 1], viewport: Double(width)) }
            }
        } catch {
            throw MeasureError.page(page, "it reported a measurement no layout has: \(error) (a transform or size far beyond any screen, or a script writing into the page's marks); fix the page, or leave it out of the pages measured")
        }
    }
}
