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
        if let checking {
            if checksClassicScrollbars { classicSamples = Samples(text: text) }
            try await measure(page, at: checking, session: session, context: context, into: &samples, classic: &classicSamples, settling: true)
        } else {
            let named = try await namedBreakpoints(session: session, context: context)
            var pending = Array(Set(ladder.coarse + named)).sorted()
            for _ in 0...ladder.maximumRounds where !pending.isEmpty {
                var none: Samples?
                try await measure(page, at: pending, session: session, context: context, into: &samples, classic: &none)
                pending = samples.refinements(resolution: ladder.resolution)
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
                            loadedElements: samples.loadedElements)
        }
        var errors: [String] = []
        for error in watcher.errors where !errors.contains(error) && errors.count < Self.maximumScriptErrors { errors.append(error) }
        return Outcome(layout: layout(samples), classic: classicSamples.map(layout),
                       widths: samples.viewports.count + (classicSamples?.viewports.count ?? 0), scriptErrors: errors,
                       styles: checksStyles ? samples.styles : nil)
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

    /// The viewports around every width the page's media queries name (`BreakpointScript`).
    private func namedBreakpoints(session: String, context: Int) async throws -> [Int] {
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(BreakpointScript.source), "contextId": .number(Double(context)), "returnByValue": true,
        ], session: session)
        guard let text = answer["result"]?["value"]?.string, let list = JSONValue(parsing: Array(text.utf8))?.array else { return [] }
        return BreakpointScript.viewports(for: list.compactMap(\.number), in: ladder)
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
                         settling: Bool = false) async throws {
        let modes: [Scrollbars] = classic == nil ? [.hidden] : [.hidden, .classic]
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(MeasureScript.call(widths: widths, settle: settling, scrollbars: modes, styles: checksStyles && settling)),
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
            throw MeasureError.page(page, "it reported a measurement no layout has: \(error) (a transform or size far beyond any screen, or a script writing into the page's marks); fix the page, or leave it out of the pages measured")
        }
    }
}
