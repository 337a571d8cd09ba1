import Foundation
import NIOConcurrencyHelpers

/// A tab pages are measured in one after another: a browser context of its own (a renderer
/// process of its own, so a page stuck in a script stalls only this tab, which is then closed
/// and another opened), with every request paused and answered by `SiteResponder`.
///
/// Opening a context, a tab and its domains for each page cost about a fifth of a page's time;
/// a tab kept from page to page pays it once.
///
/// Each page is loaded in a new frame of the host page, so what a request or an exception
/// belongs to is told by its frame: those of frames attached before the page's turn came (a
/// late request of the page before) are answered and not counted. (Going to `about:blank`
/// between pages tells it too, at 80 ms a page.)
final class MeasuringTab: Sendable {
    let session: String
    private let context: String
    private let target: String
    private let connection: DevToolsConnection
    /// The page being measured now, and who is who.
    private struct State {
        var watcher = PageWatcher()
        /// Every frame attached so far, and those attached before the current page's turn.
        var frames: Set<String> = []
        var earlier: Set<String> = []
        /// Execution contexts' frames.
        var contexts: [Int: String] = [:]
    }
    private let state = NIOLockedValueBox(State())
    private let handler: Task<Void, Never>

    private init(connection: DevToolsConnection, context: String, target: String, session: String, responder: SiteResponder) {
        self.connection = connection
        self.context = context
        self.target = target
        self.session = session
        let state = state
        let events = connection.events(of: session)
        handler = Task {
            for await event in events {
                await Self.handle(event, session: session, connection: connection, responder: responder, state: state)
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
            try await connection.send("Page.addScriptToEvaluateOnNewDocument", ["source": .string(loadedChildren)], session: session)
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

    /// Run in every frame before its own scripts: what the page held when its `load` event
    /// fired, before its own handlers run, is the layout's (`MeasureScript` measures the
    /// page's height to its bottom). Taken later, after the event reached dppx, a script's late
    /// content (a beacon image 300 ms after load) was in it on a busy machine and not on an idle one.
    /// How many elements the body held then (but `<picture>` and `<source>`, which a rewrite
    /// adds) tells two loads that held the same content: a script's content that comes before
    /// the event in one load and after it in another changes the count.
    static let loadedChildren = """
        addEventListener('load', () => {
          window.__dppxLoaded = [...(document.body ? document.body.children : [])];
          window.__dppxLoadedElements = document.body ? document.body.querySelectorAll(':not(picture):not(source)').length : 0;
        }, { once: true });
        """

    /// A watcher for the next page: its events go there from now on, but for those of frames
    /// attached before.
    func watch() -> PageWatcher {
        let watcher = PageWatcher()
        state.withLockedValue { state in
            state.watcher = watcher
            state.earlier = state.frames
        }
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
    /// requests are answered side by side, as long as their bodies fit in `AnswerBudget`),
    /// notes a JavaScript error or the load, and keeps track of frames and their execution
    /// contexts.
    private static func handle(_ event: DevToolsConnection.Event, session: String, connection: DevToolsConnection,
                               responder: SiteResponder, state: NIOLockedValueBox<State>) async {
        /// The current page's watcher, unless the event is an earlier frame's.
        func watcher(frame: String?) -> PageWatcher? {
            state.withLockedValue { state in frame.map { state.earlier.contains($0) } == true ? nil : state.watcher }
        }
        switch event.method {
        case "Fetch.requestPaused":
            guard let id = event.params["requestId"]?.string, let url = event.params["request"]?["url"]?.string else { return }
            let size = responder.bodySize(of: url)
            await AnswerBudget.shared.take(size)
            let answer = responder.answer(url)
            if let path = answer.dependency { watcher(frame: event.params["frameId"]?.string)?.depended(on: path) }
            Task {
                defer { AnswerBudget.shared.give(size) }
                _ = try? await connection.send("Fetch.fulfillRequest", [
                    "requestId": .string(id), "responseCode": .number(Double(answer.status)),
                    "responseHeaders": [["name": "Content-Type", "value": .string(answer.contentType)],
                                        ["name": "Cache-Control", "value": "no-store"]],
                    "body": .string(Data(answer.body).base64EncodedString()),
                ], session: session)
            }
        case "Page.frameAttached":
            if let frame = event.params["frameId"]?.string { state.withLockedValue { _ = $0.frames.insert(frame) } }
        case "Runtime.executionContextCreated":
            if let id = event.params["context"]?["id"]?.number, let frame = event.params["context"]?["auxData"]?["frameId"]?.string {
                state.withLockedValue { $0.contexts[Int(id)] = frame }
            }
        case "Runtime.exceptionThrown":
            let details = event.params["exceptionDetails"]
            let frame = details?["executionContextId"]?.number.flatMap { id in state.withLockedValue { $0.contexts[Int(id)] } }
            let message = details?["exception"]?["description"]?.string ?? details?["text"]?.string ?? "an uncaught exception"
            let place = details?["url"]?.string.flatMap(SiteResponder.path(of:)).map { " (\($0):\(Int(details?["lineNumber"]?.number ?? 0) + 1))" } ?? ""
            watcher(frame: frame)?.failed(message.split(separator: "\n").first.map(String.init).map { $0 + place } ?? message)
        case "Page.loadEventFired":
            watcher(frame: nil)?.loaded()
        case "Inspector.targetCrashed":
            watcher(frame: nil)?.failed("its tab crashed")
            watcher(frame: nil)?.loaded()
        default:
            break
        }
    }
}
