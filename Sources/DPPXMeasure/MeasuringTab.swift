import Foundation
import NIOConcurrencyHelpers

/// A tab pages are measured in one after another: a browser context of its own (a renderer
/// process of its own, so a page stuck in a script stalls only this tab, which is then closed
/// and another opened), with every request paused and answered by `SiteResponder`.
///
/// Opening a context, a tab and its domains for each page cost about a fifth of a page's time;
/// a tab kept from page to page pays it once.
final class MeasuringTab: Sendable {
    let session: String
    private let context: String
    private let target: String
    private let connection: DevToolsConnection
    /// The page being measured now: what its events are told to.
    private let current = NIOLockedValueBox(PageWatcher())
    private let handler: Task<Void, Never>

    private init(connection: DevToolsConnection, context: String, target: String, session: String, responder: SiteResponder) {
        self.connection = connection
        self.context = context
        self.target = target
        self.session = session
        let current = current
        let events = connection.events(of: session)
        handler = Task {
            for await event in events {
                Self.handle(event, session: session, connection: connection, responder: responder, watcher: current.withLockedValue { $0 })
            }
        }
    }

    /// A new tab, its page domains on, every request paused, its viewport `width` x `height`.
    static func open(connection: DevToolsConnection, responder: SiteResponder, width: Int, height: Int) async throws(MeasureError) -> MeasuringTab {
        guard let context = try await connection.send("Target.createBrowserContext")["browserContextId"]?.string else {
            throw .browser("the browser made no context for a tab")
        }
        guard let target = try await connection.send("Target.createTarget", ["url": "about:blank", "browserContextId": .string(context)])["targetId"]?.string,
              let session = try await connection.send("Target.attachToTarget", ["targetId": .string(target), "flatten": true])["sessionId"]?.string else {
            _ = try? await connection.send("Target.disposeBrowserContext", ["browserContextId": .string(context)])
            throw .browser("the browser opened no tab")
        }
        let tab = MeasuringTab(connection: connection, context: context, target: target, session: session, responder: responder)
        do {
            for domain in ["Page.enable", "Runtime.enable"] { try await connection.send(domain, session: session) }
            try await connection.send("Fetch.enable", ["patterns": [["urlPattern": "*"]]], session: session)
            try await connection.send("Emulation.setDeviceMetricsOverride", [
                "width": .number(Double(width)), "height": .number(Double(height)), "deviceScaleFactor": 1, "mobile": false,
            ], session: session)
        } catch {
            await tab.close()
            throw error
        }
        return tab
    }

    /// A watcher for the next page: the tab goes to `about:blank` first, and once that has
    /// loaded (its event comes after every event of the page before), events go to the new
    /// watcher, so no late request of one page counts as another's dependency.
    func watch() async throws(MeasureError) -> PageWatcher {
        let blank = PageWatcher()
        current.withLockedValue { $0 = blank }
        try await connection.send("Page.navigate", ["url": "about:blank"], session: session)
        await blank.waitForLoad()
        let watcher = PageWatcher()
        current.withLockedValue { $0 = watcher }
        return watcher
    }

    /// Closes the tab and its context.
    func close() async {
        handler.cancel()
        _ = try? await connection.send("Target.closeTarget", ["targetId": .string(target)])
        _ = try? await connection.send("Target.disposeBrowserContext", ["browserContextId": .string(context)])
        connection.forget(session)
    }

    /// Answers a paused request (without waiting for the browser's reply, so the page's
    /// requests are answered side by side), notes a JavaScript error or the load.
    private static func handle(_ event: DevToolsConnection.Event, session: String, connection: DevToolsConnection,
                               responder: SiteResponder, watcher: PageWatcher) {
        switch event.method {
        case "Fetch.requestPaused":
            guard let id = event.params["requestId"]?.string, let url = event.params["request"]?["url"]?.string else { return }
            let answer = responder.answer(url)
            if let path = answer.dependency { watcher.depended(on: path) }
            Task {
                _ = try? await connection.send("Fetch.fulfillRequest", [
                    "requestId": .string(id), "responseCode": .number(Double(answer.status)),
                    "responseHeaders": [["name": "Content-Type", "value": .string(answer.contentType)],
                                        ["name": "Cache-Control", "value": "no-store"]],
                    "body": .string(Data(answer.body).base64EncodedString()),
                ], session: session)
            }
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
