import DPPXMeasure
import Foundation

/// One headless Chromium kept for the whole test process, where `Chromium.dumpDOM` and
/// `Chromium.screenshot` load each page over the DevTools protocol: a browser started per load
/// cost more CPU than the pages themselves (557 launches, about 3.7 CPU minutes of a full run).
///
/// Each load gets a browser context of its own (an empty cookie jar and cache, as a fresh
/// profile gave), its window size and device scale factor by device metrics emulation (as
/// `--window-size` and `--force-device-scale-factor`), and the page time of
/// `--virtual-time-budget`, by the virtual time policy headless Chromium itself uses for it
/// (counted from the load event, see `navigate`). A load that outlasts its timeout has its context closed; a browser that no longer
/// answers is ended and the next load starts another. The browser is ended when the process exits.
actor SharedChromium {
    /// The flags `Browser.start` does not pass itself but `Chromium`'s launches do.
    static let extraArguments = ["--hide-scrollbars"]

    /// The CSS pixels of a `--window-size` window that headless Chromium does not give the page
    /// (a 1000x800 window shows a 1000x657 viewport, at every device scale factor);
    /// `SharedChromiumTests` notices if a Chromium release changes it.
    static let windowFrame = 143

    /// What `--dump-dom` prints: the doctype as written, a newline, then the document.
    static let dumpScript = "(document.doctype ? new XMLSerializer().serializeToString(document.doctype) + '\\n' : '') + document.documentElement.outerHTML"

    /// The browser, or why none could be started (loads then launch a browser each).
    private enum State {
        case idle
        /// Started by the first load; the loads that come meanwhile wait for the same one.
        case starting(Task<Browser?, Never>)
        case running(Browser)
        case unavailable(String)
    }

    private let executable: String
    private var state = State.idle

    init(executable: String) {
        self.executable = executable
    }

    /// The browser, started on the first call; nil if it cannot be started here.
    func browser() async -> Browser? {
        switch state {
        case .running(let browser): return browser
        case .starting(let start): return await start.value
        case .unavailable: return nil
        case .idle: break
        }
        let executable = executable
        let start = Task { () -> Result<Browser, any Error> in
            do { return .success(try await Browser.start(executable: executable, extraArguments: Self.extraArguments, network: .machine)) } catch { return .failure(error) }
        }
        let waiting = Task { () -> Browser? in try? await start.value.get() }
        state = .starting(waiting)
        switch await start.value {
        case .success(let browser):
            _ = Self.stoppedAtExit
            state = .running(browser)
            return browser
        case .failure(let error):
            state = .unavailable("\(error)")
            return nil
        }
    }

    /// Ends `browser` if it is still the shared one: the next load starts another.
    func discard(_ browser: Browser) async {
        guard case .running(let current) = state, current === browser else { return }
        state = .idle
        await browser.stop()
    }

    /// Loads `url` in a context of its own and returns `--dump-dom`'s text, or nil if no
    /// browser could be started (the caller launches one then).
    /// `defaultFontSize`: the browser's default font size, CSS px (a setting many people raise
    /// from 16: media queries in `em` and `rem` count it).
    nonisolated func dumpDOM(of url: String, deviceScaleFactor: Double, windowSize: (width: Int, height: Int),
                             virtualTimeBudget: Int, timeout: Double, defaultFontSize: Int? = nil) async throws -> String? {
        // `--dump-dom`'s page is the window less its frame.
        let viewport = (width: windowSize.width, height: windowSize.height - Self.windowFrame)
        return try await inTab(deviceScaleFactor: deviceScaleFactor, viewport: viewport, timeout: timeout,
                               loading: "\(url) at DPR \(deviceScaleFactor)") { session, connection in
            if let defaultFontSize {
                try await connection.send("Page.setFontSizes", ["fontSizes": ["standard": .number(Double(defaultFontSize))]], session: session)
            }
            try await Self.navigate(to: url, in: session, of: connection, virtualTimeBudget: virtualTimeBudget)
            let result = try await connection.send("Runtime.evaluate", ["expression": .string(Self.dumpScript), "returnByValue": true], session: session)
            guard let dom = result["result"]?["value"]?.string else {
                throw Chromium.Failure(message: "chromium could not serialise \(url): \(result.text)")
            }
            return dom
        }
    }

    /// Loads `url` in a context of its own and returns the PNG `--screenshot` saved: after
    /// `stopAfter` milliseconds (`--timeout`: loads still pending are stopped), else after the
    /// page time of `--virtual-time-budget=15000`. Nil if no browser could be started.
    nonisolated func screenshot(of url: String, deviceScaleFactor: Double, windowSize: (width: Int, height: Int),
                                stopAfter: Int?, timeout: Double) async throws -> Data? {
        // `--screenshot` shows the whole window.
        try await inTab(deviceScaleFactor: deviceScaleFactor, viewport: windowSize, timeout: timeout,
                        loading: "\(url) for a screenshot") { session, connection in
            if let stopAfter {
                // Counted from the page's DOMContentLoaded, not from the navigation: on a busy
                // machine the page's renderer (sandboxed, in namespaces of its own) can take
                // seconds to start, and a wall-clock wait from the navigation shot a page not
                // yet there, or one whose held-back image had already come.
                try await Self.navigate(to: url, in: session, of: connection, virtualTimeBudget: nil, until: "Page.domContentEventFired")
                try await Task.sleep(for: .milliseconds(stopAfter))
                // While the navigation moves the page into its own renderer (slower on a busy
                // machine, the renderer sandboxed), the tab answers "Not attached to an active
                // page" for a moment: asked again, it stops the load.
                var attempts = 0
                while true {
                    do {
                        try await connection.send("Page.stopLoading", session: session)
                        break
                    } catch {
                        attempts += 1
                        guard attempts < 20, "\(error)".contains("Not attached to an active page") else { throw error }
                        try await Task.sleep(for: .milliseconds(100))
                    }
                }
            } else {
                try await Self.navigate(to: url, in: session, of: connection, virtualTimeBudget: 15_000)
            }
            let shot = try await connection.send("Page.captureScreenshot", ["format": "png"], session: session)
            guard let png = shot["data"]?.string.flatMap({ Data(base64Encoded: $0) }) else {
                throw Chromium.Failure(message: "chromium took no screenshot of \(url): \(shot.text)")
            }
            return png
        }
    }

    /// Runs `work` in a new tab of a new browser context, its viewport and device scale factor
    /// emulated, within `timeout` seconds; closes both after. A browser that no longer answers
    /// is ended. Nil if no browser could be started.
    private nonisolated func inTab<T: Sendable>(deviceScaleFactor: Double, viewport: (width: Int, height: Int), timeout: Double, loading what: String,
                                                _ work: @escaping @Sendable (String, DevToolsConnection) async throws -> T) async throws -> T? {
        guard let browser = await browser() else { return nil }
        let connection = browser.connection
        var context: String?
        var tab: (target: String, session: String)?
        do {
            let made = try await Self.within(30, "making a browser context") {
                try await Self.string(connection.send("Target.createBrowserContext"), "browserContextId")
            }
            context = made
            let opened = try await Self.within(30, "opening a tab") {
                let target = try await Self.string(connection.send("Target.createTarget", [
                    "url": "about:blank", "browserContextId": .string(made),
                ]), "targetId")
                let session = try await Self.string(connection.send("Target.attachToTarget", [
                    "targetId": .string(target), "flatten": true,
                ]), "sessionId")
                return (target: target, session: session)
            }
            tab = opened
            let result = try await Self.within(timeout, "loading \(what)") {
                try await connection.send("Emulation.setDeviceMetricsOverride", [
                    "width": .number(Double(viewport.width)), "height": .number(Double(viewport.height)),
                    "deviceScaleFactor": .number(deviceScaleFactor), "mobile": false,
                ], session: opened.session)
                return try await work(opened.session, connection)
            }
            await Self.close(context: context, tab: tab, of: connection)
            return result
        } catch {
            await Self.close(context: context, tab: tab, of: connection)
            let alive = (try? await Self.within(10, "answering") { try await connection.send("Browser.getVersion") }) != nil
            if !alive { await discard(browser) }
            throw error
        }
    }

    /// Navigates and, with a `virtualTimeBudget`, waits for the load event (in real time:
    /// virtual time paused held the load back), then until that much page time has passed (`pauseIfNetworkFetchesPending`: time stands still while a fetch is
    /// pending). Counted from the navigation, as headless Chromium does, the budget ran out at
    /// once whenever nothing was pending for a moment: on about:blank before the page was
    /// fetched (the navigation's own fetch is the browser's), or on a busy machine between the
    /// page's arrival and its first image request.
    private static func navigate(to url: String, in session: String, of connection: DevToolsConnection, virtualTimeBudget: Int?,
                                 until event: String? = nil) async throws {
        var events = connection.events(of: session).makeAsyncIterator()
        try await connection.send("Page.enable", session: session)
        let navigation = try await connection.send("Page.navigate", ["url": .string(url)], session: session)
        if let failure = navigation["errorText"]?.string {
            throw Chromium.Failure(message: "chromium could not load \(url): \(failure)")
        }
        if let event {
            while let next = await events.next(), next.method != event {}
        }
        guard let virtualTimeBudget else { return }
        while let event = await events.next(), event.method != "Page.loadEventFired" {}
        try await connection.send("Emulation.setVirtualTimePolicy", [
            "policy": "pauseIfNetworkFetchesPending", "budget": .number(Double(virtualTimeBudget)),
        ], session: session)
        while let event = await events.next(), event.method != "Emulation.virtualTimeBudgetExpired" {}
        try Task.checkCancellation()
    }

    /// Closes the tab and its context, ignoring a browser that no longer answers.
    private static func close(context: String?, tab: (target: String, session: String)?, of connection: DevToolsConnection) async {
        _ = try? await within(10, "closing a tab") {
            if let tab { _ = try? await connection.send("Target.closeTarget", ["targetId": .string(tab.target)]) }
            if let context { _ = try? await connection.send("Target.disposeBrowserContext", ["browserContextId": .string(context)]) }
        }
        if let tab { connection.forget(tab.session) }
    }

    /// The string `key` of a command's result.
    private static func string(_ result: JSONValue, _ key: String) throws -> String {
        guard let value = result[key]?.string else {
            throw Chromium.Failure(message: "chromium answered without \(key): \(result.text)")
        }
        return value
    }

    /// Runs `work`, cancelling it and throwing after `seconds`.
    private static func within<T: Sendable>(_ seconds: Double, _ what: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await work() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let result = try await group.next() ?? nil else {
                throw Chromium.Failure(message: "chromium timed out after \(seconds) s \(what)")
            }
            return result
        }
    }

    /// Ends every browser when the test process exits, normally or by Ctrl-C or SIGTERM:
    /// Chromium leads a process group of its own, which neither reaches. (A handler, unlike an
    /// ignored signal, is not inherited by the programs the tests start.)
    private static let stoppedAtExit: Void = {
        atexit { Browser.stopAll() }
        for number in [SIGINT, SIGTERM] {
            signal(number) { received in
                Browser.stopAll()
                exit(128 + received)
            }
        }
    }()
}
