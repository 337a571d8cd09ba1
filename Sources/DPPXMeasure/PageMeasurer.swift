import DPPXCore
import Foundation

/// Measures one page in a tab of its own: loads it from the site's folder (every request
/// answered by `SiteResponder` through the Fetch domain), then runs `MeasureScript` at the
/// ladder's coarse widths and at every width `SizesFitter.refinements(of:)` asks for, round
/// after round, until none is left.
struct PageMeasurer: Sendable {
    let connection: DevToolsConnection
    let responder: SiteResponder
    let ladder: ViewportLadder
    /// Checking a rewrite: these widths only, ascending, each measured once the page has
    /// settled at it (`settleScript`); nil measures the ladder and refines it.
    var checking: [Int]? = nil

    /// What measuring a page gave: its layout and how many widths it was measured at.
    struct Outcome: Sendable {
        var layout: LayoutFile.Page
        var widths: Int
    }

    /// Measures `page` (root-relative), giving up after `timeout`.
    func measure(_ page: String, timeout: Duration) async throws(MeasureError) -> Outcome {
        guard responder.read(page) != nil else { throw .page(page, "there is no such file under the root") }
        // A browser context of its own: a renderer process of its own, so a page stuck in a
        // script cannot stall the pages measured beside it.
        let context: String
        let target: String
        let session: String
        do {
            guard let created = try await connection.send("Target.createBrowserContext")["browserContextId"]?.string else {
                throw MeasureError.page(page, "the browser made no context for it")
            }
            context = created
            guard let id = try await connection.send("Target.createTarget", ["url": "about:blank", "browserContextId": .string(context)])["targetId"]?.string else {
                throw MeasureError.page(page, "the browser opened no tab for it")
            }
            target = id
            guard let attached = try await connection.send("Target.attachToTarget", ["targetId": .string(id), "flatten": true])["sessionId"]?.string else {
                throw MeasureError.page(page, "the browser gave no session for its tab")
            }
            session = attached
        } catch let error as MeasureError {
            throw error
        } catch {
            throw .page(page, "\(error)")
        }
        let watcher = PageWatcher()
        let events = connection.events(of: session)
        let handler = Task { [connection, responder] in
            for await event in events {
                await Self.handle(event, session: session, connection: connection, responder: responder, watcher: watcher)
            }
        }
        defer { handler.cancel() }
        let result: Result<Outcome, MeasureError>
        do {
            let outcome = try await withTimeout(timeout) {
                try await self.run(page, session: session, watcher: watcher)
            }
            if let outcome { result = .success(outcome) } else {
                result = .failure(.page(page, "it did not load and measure within \(timeout.components.seconds) s (a script that never ends, or a load that never finishes)"))
            }
        } catch let error as MeasureError {
            if case .page = error { result = .failure(error) } else { result = .failure(.page(page, error.description)) }
        } catch {
            result = .failure(.page(page, "\(error)"))
        }
        _ = try? await connection.send("Target.closeTarget", ["targetId": .string(target)])
        _ = try? await connection.send("Target.disposeBrowserContext", ["browserContextId": .string(context)])
        connection.forget(session)
        return try result.get()
    }

    private func run(_ page: String, session: String, watcher: PageWatcher) async throws -> Outcome {
        for domain in ["Page.enable", "Runtime.enable"] { try await connection.send(domain, session: session) }
        try await connection.send("Fetch.enable", ["patterns": [["urlPattern": "*"]]], session: session)
        try await setViewport(ladder.coarse[0], session: session)
        let navigation = try await connection.send("Page.navigate", ["url": .string(SiteResponder.url(ofPage: page))], session: session)
        if let error = navigation["errorText"]?.string, !error.isEmpty { throw MeasureError.page(page, "it failed to load: \(error)") }
        await watcher.waitForLoad()
        try Task.checkCancellation()
        try check(watcher, page: page)
        // What the page holds at its load event: its height is measured as theirs (`MeasureScript`).
        try await connection.send("Runtime.evaluate", [
            "expression": "window.__dppxLoaded = [...(document.body ? document.body.children : [])]; true", "returnByValue": true,
        ], session: session)

        var samples = Samples()
        if let checking {
            for width in checking { try await measure(at: width, session: session, into: &samples, settling: true) }
        } else {
            let named = try await namedBreakpoints(session: session)
            var pending = Array(Set(ladder.coarse + named)).sorted()
            for _ in 0...ladder.maximumRounds where !pending.isEmpty {
                for width in pending { try await measure(at: width, session: session, into: &samples) }
                pending = samples.refinements(resolution: ladder.resolution)
            }
        }
        try check(watcher, page: page)
        let dependencies = [page] + watcher.dependencies.subtracting([page]).sorted()
        let layout = LayoutFile.Page(
            hash: DependencyHash.of(dependencies, responder: responder, ladder: ladder),
            dependencies: dependencies, viewportHeight: Double(ladder.height),
            scrollbars: samples.scrollbarsShown ? "shown" : "hidden",
            images: samples.images, backgrounds: samples.backgrounds, heights: samples.heights)
        return Outcome(layout: layout, widths: samples.viewports.count)
    }

    /// The viewports around every width the page's media queries name (`BreakpointScript`).
    private func namedBreakpoints(session: String) async throws -> [Int] {
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(BreakpointScript.source), "returnByValue": true,
        ], session: session)
        guard let text = answer["result"]?["value"]?.string, let list = JSONValue(parsing: Array(text.utf8))?.array else { return [] }
        return BreakpointScript.viewports(for: list.compactMap(\.number), in: ladder)
    }

    private func check(_ watcher: PageWatcher, page: String) throws(MeasureError) {
        if let error = watcher.errors.first {
            throw .page(page, "it threw a JavaScript error: \(error)")
        }
    }

    private func setViewport(_ width: Int, session: String) async throws(MeasureError) {
        try await connection.send("Emulation.setDeviceMetricsOverride", [
            "width": .number(Double(width)), "height": .number(Double(ladder.height)),
            "deviceScaleFactor": 1, "mobile": false,
        ], session: session)
    }

    /// Run before measuring a rewritten page at a new width: a `w`-described `<img>` picks
    /// its file for the new width in the next rendering steps and takes its natural size from
    /// that file once loaded, so the script waits two frames, then for every image still
    /// loading (at most 2 s each).
    static let settleScript = #"""
    (async () => {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      await Promise.all([...document.images].map((image) => image.complete ? null : new Promise((done) => {
        image.addEventListener('load', done, { once: true });
        image.addEventListener('error', done, { once: true });
        setTimeout(done, 2000);
      })));
      return true;
    })()
    """#

    private func measure(at width: Int, session: String, into samples: inout Samples, settling: Bool = false) async throws {
        try await setViewport(width, session: session)
        if settling {
            _ = try await connection.send("Runtime.evaluate", [
                "expression": .string(Self.settleScript), "awaitPromise": true, "returnByValue": true,
            ], session: session)
        }
        let answer = try await connection.send("Runtime.evaluate", [
            "expression": .string(MeasureScript.source), "awaitPromise": true, "returnByValue": true,
        ], session: session)
        if let details = answer["exceptionDetails"] {
            throw MeasureError.browser("the measuring script failed at a \(width) px viewport: \(details["exception"]?["description"]?.string ?? details.text)")
        }
        guard let text = answer["result"]?["value"]?.string, let report = JSONValue(parsing: Array(text.utf8)) else {
            throw MeasureError.browser("the measuring script returned no report at a \(width) px viewport")
        }
        samples.add(report, viewport: Double(width))
    }

    /// Answers a paused request, notes a JavaScript error or the load.
    private static func handle(_ event: DevToolsConnection.Event, session: String, connection: DevToolsConnection,
                               responder: SiteResponder, watcher: PageWatcher) async {
        switch event.method {
        case "Fetch.requestPaused":
            guard let id = event.params["requestId"]?.string, let url = event.params["request"]?["url"]?.string else { return }
            let answer = responder.answer(url)
            if let path = answer.dependency { watcher.depended(on: path) }
            _ = try? await connection.send("Fetch.fulfillRequest", [
                "requestId": .string(id), "responseCode": .number(Double(answer.status)),
                "responseHeaders": [["name": "Content-Type", "value": .string(answer.contentType)],
                                    ["name": "Cache-Control", "value": "no-store"]],
                "body": .string(Data(answer.body).base64EncodedString()),
            ], session: session)
        case "Runtime.exceptionThrown":
            let details = event.params["exceptionDetails"]
            let message = details?["exception"]?["description"]?.string ?? details?["text"]?.string ?? "an uncaught exception"
            let place = details?["url"]?.string.flatMap(SiteResponder.path(of:)).map { " (\($0):\(Int(details?["lineNumber"]?.number ?? 0) + 1))" } ?? ""
            watcher.failed(message.split(separator: "\n").first.map(String.init).map { $0 + place } ?? message)
        case "Page.loadEventFired":
            watcher.loaded()
        case "Inspector.targetCrashed":
            watcher.failed("its tab crashed")
            watcher.loaded()
        default:
            break
        }
    }
}
