import Foundation
import NIOConcurrencyHelpers

/// A tab pages are measured in one after another: a browser context of its own (a renderer
/// process of its own, so a page stuck in a script stalls only this tab, which is then closed
/// and another opened), with every request paused and answered by `SiteResponder` (one to
/// another origin failed at once, as with no network).
///
/// Opening a context, a tab and its domains for each page cost about a fifth of a page's time;
/// a tab kept from page to page pays it once.
///
/// Each page is loaded in a new frame of the host page, so what a request or an exception
/// belongs to is told by its frame: those of frames attached before the page's turn came (a
/// late request of the page before) are answered and not counted. (Going to `about:blank`
/// between pages tells it too, at 80 ms a page.)
///
/// A page is hostile code, kept in its place: its dialogs (`alert()`) are dismissed at once;
/// the host page and the page's own frame load the one document each that dppx asked for, and
/// every other navigation of them is refused (another page's measuring URL, a frame-busting
/// `top.location`) and fails the page, named; dppx's scripts run in an isolated world of the
/// page's frame (`MeasureScript.world`), where the page's own scripts cannot reach them.
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
        /// Each frame's isolated world of dppx's (`MeasureScript.world`), by execution context.
        var worlds: [String: Int] = [:]
        /// The current page's host page and page URLs, whether the host page was asked for, and
        /// the frame the page loaded in.
        var expected: (host: String, page: String)?
        var hostRequested = false
        var measuringFrame: String?
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
                await Self.handle(event, session: session, mainFrame: target, connection: connection, responder: responder, state: state)
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
            try await connection.send("Page.setLifecycleEventsEnabled", ["enabled": true], session: session)
            try await connection.send("Page.addScriptToEvaluateOnNewDocument", [
                "source": .string(loadedChildren), "worldName": .string(MeasureScript.world),
            ], session: session)
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

    /// Run in every frame, in dppx's isolated world, before the page's own scripts: what the page held when its `load` event
    /// fired, before its own handlers run, is the layout's (`MeasureScript` measures the
    /// page's height to its bottom). Taken later, after the event reached dppx, a script's late
    /// content (a beacon image 300 ms after load) was in it on a busy machine and not on an idle one.
    /// How many elements the body held then (but `<picture>` and `<source>`, which a rewrite
    /// adds) tells two loads that held the same content: a script's content that comes before
    /// the event in one load and after it in another changes the count.
    ///
    /// Until then it counts the changes to the document (`window.__dppxChanges`): a page whose
    /// load event never comes is measured once nothing has loaded or changed for a while
    /// (`PageMeasurer.settle`).
    static let loadedChildren = """
        {
          window.__dppxChanges = 0;
          const changes = new MutationObserver((records) => { window.__dppxChanges += records.length; });
          changes.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
          window.__dppxTakeLoaded = () => {
            changes.disconnect();
            window.__dppxLoaded = [...(document.body ? document.body.children : [])];
            window.__dppxLoadedElements = document.body ? document.body.querySelectorAll(':not(picture):not(source)').length : 0;
          };
          addEventListener('load', window.__dppxTakeLoaded, { once: true });
        }
        """

    /// For a page measured without its load event (`PageMeasurer.settle`): what its body holds
    /// now stands for what it held at its load event (`loadedChildren`).
    func takeLoadedElements() async {
        guard let context = state.withLockedValue({ state in state.measuringFrame.flatMap { state.worlds[$0] } }) else { return }
        _ = try? await connection.send("Runtime.evaluate", [
            "expression": "window.__dppxLoaded || window.__dppxTakeLoaded()", "contextId": .number(Double(context)),
        ], session: session)
    }

    /// How many changes the current page's document has had so far (`loadedChildren`), read in
    /// dppx's isolated world of its frame; nil before that world exists.
    func changes() async -> Int? {
        guard let context = state.withLockedValue({ state in state.measuringFrame.flatMap { state.worlds[$0] } }) else { return nil }
        let answer = try? await connection.send("Runtime.evaluate", [
            "expression": "window.__dppxChanges", "contextId": .number(Double(context)), "returnByValue": true,
        ], session: session)
        return answer?["result"]?["value"]?.number.map { Int(min(max($0, 0), 1e15)) }
    }

    /// A watcher for the next page, shown at `host` in a frame loading `page` (URLs): its
    /// events go there from now on, but for those of frames attached before.
    func watch(host: String, page: String) -> PageWatcher {
        let watcher = PageWatcher()
        state.withLockedValue { state in
            state.watcher = watcher
            state.earlier = state.frames
            state.expected = (host, page)
            state.hostRequested = false
            state.measuringFrame = nil
        }
        return watcher
    }

    /// The execution context of dppx's isolated world in the current page's frame, once the
    /// host page holds that frame and nothing else: the page's own scripts share its DOM and
    /// nothing of its JavaScript (not `JSON`, not a global). `page` names the page in errors.
    func measuringContext(page: String) async throws(MeasureError) -> Int {
        let frame = try await checkFrames(page: page)
        if let context = state.withLockedValue({ $0.worlds[frame] }) { return context }
        guard let made = try await connection.send("Page.createIsolatedWorld", [
            "frameId": .string(frame), "worldName": .string(MeasureScript.world), "grantUniveralAccess": false,
        ], session: session)["executionContextId"]?.number else {
            throw .page(page, "the browser made no isolated world in its frame")
        }
        return Int(made)
    }

    /// Checks that the tab shows dppx's host page holding one frame, the one the page loaded
    /// in (a page that took the window over, or added frames to it, is named), and gives
    /// that frame.
    @discardableResult
    func checkFrames(page: String) async throws(MeasureError) -> String {
        let tree = try await connection.send("Page.getFrameTree", session: session)["frameTree"]
        let children = tree?["childFrames"]?.array ?? []
        let frame = state.withLockedValue { $0.measuringFrame }
        guard tree?["frame"]?["id"]?.string == target, children.count == 1, let frame,
              children[0]["frame"]?["id"]?.string == frame else {
            throw .page(page, Self.tookOver)
        }
        return frame
    }

    /// Why a page that replaced the window it was shown in is not measured.
    static let tookOver = "it took over the window it was shown in (a frame-busting script such as `if (top !== self) top.location = self.location`): dppx measures each page in a frame of a page of its own, and refuses to let it navigate; guard it with the header Content-Security-Policy: frame-ancestors 'self' instead of a script, or state its images' sizes (a sizes attribute, or a [[rule]]) and leave it out of the pages measured"

    /// Whether two URLs of the measuring origin name the same file.
    private static func samePage(_ a: String, _ b: String) -> Bool {
        guard let path = SiteResponder.path(of: a) else { return false }
        return path == SiteResponder.path(of: b)
    }

    /// Whether a navigation of `frame` to `url` is one dppx asked for: the host page in the tab's
    /// main frame, once; the page in a frame of it, once (which is then the measuring frame).
    /// Nil when it is allowed, else why not. Frames inside the page navigate freely (their
    /// requests are answered like any other), unless to a host page.
    private static func refusal(of url: String, in frame: String, mainFrame: String, state: inout State) -> String? {
        guard let expected = state.expected else { return nil }
        if frame == mainFrame {
            if url == expected.host, !state.hostRequested {
                state.hostRequested = true
                return nil
            }
            return url == expected.page ? tookOver : "it navigated the page dppx shows it in to \(url) (refused: a measured page may not leave its frame or stand in for another page's measurement); a page that redirects by script is left out of the pages measured, or measured by the name of the page it leads to"
        }
        if frame == state.measuringFrame || (state.measuringFrame == nil && state.hostRequested && samePage(url, expected.page)) {
            if state.measuringFrame == nil {
                state.measuringFrame = frame
                return nil
            }
            return "it navigated its own frame to \(url) (refused: measure the page it leads to by its own name)"
        }
        if SiteResponder.path(of: url).map({ "/" + $0 == SiteResponder.hostPath }) == true {
            return "it loaded dppx's host page \(url) in a frame of its own (refused)"
        }
        return nil
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
    private static func handle(_ event: DevToolsConnection.Event, session: String, mainFrame: String, connection: DevToolsConnection,
                               responder: SiteResponder, state: NIOLockedValueBox<State>) async {
        /// The current page's watcher, unless the event is an earlier frame's.
        func watcher(frame: String?) -> PageWatcher? {
            state.withLockedValue { state in frame.map { state.earlier.contains($0) } == true ? nil : state.watcher }
        }
        switch event.method {
        case "Fetch.requestPaused":
            guard let id = event.params["requestId"]?.string, let url = event.params["request"]?["url"]?.string else { return }
            if event.params["resourceType"]?.string == "Document", let frame = event.params["frameId"]?.string,
               let refused = state.withLockedValue({ Self.refusal(of: url, in: frame, mainFrame: mainFrame, state: &$0) }) {
                // The page fails with why at once: a main frame's navigation, even refused,
                // may have stopped its load.
                watcher(frame: nil)?.refused(refused)
                watcher(frame: nil)?.loaded()
                // Aborted: the frame keeps the document it has, with no error page committed.
                Task { _ = try? await connection.send("Fetch.failRequest", ["requestId": .string(id), "errorReason": "Aborted"], session: session) }
                return
            }
            let frame = event.params["frameId"]?.string
            let current = watcher(frame: frame)
            current?.requested()
            let size = responder.bodySize(of: url)
            await AnswerBudget.shared.take(size)
            let answer = responder.answer(url)
            if event.params["resourceType"]?.string == "Stylesheet", let frame, state.withLockedValue({ $0.measuringFrame == frame }) {
                current?.stylesheet(url, answered: answer)
            }
            guard let answer else {
                // Another origin: it fails at once, as with no network (a 404 ran a page's
                // error paths as if answered; a request left pending held its load event).
                AnswerBudget.shared.give(size)
                Task { _ = try? await connection.send("Fetch.failRequest", ["requestId": .string(id), "errorReason": "InternetDisconnected"], session: session) }
                return
            }
            if let path = answer.dependency { current?.depended(on: path) }
            Task {
                defer { AnswerBudget.shared.give(size) }
                _ = try? await connection.send("Fetch.fulfillRequest", [
                    "requestId": .string(id), "responseCode": .number(Double(answer.status)),
                    "responseHeaders": [["name": "Content-Type", "value": .string(answer.contentType)],
                                        ["name": "Cache-Control", "value": "no-store"],
                                        // A font of the site's base URL, loaded by a page of the measuring origin.
                                        ["name": "Access-Control-Allow-Origin", "value": .string(SiteResponder.origin)]],
                    "body": .string(Data(answer.body).base64EncodedString()),
                ], session: session)
            }
        case "Page.lifecycleEvent":
            // The page's own frame has its document parsed: from then on, a load event that
            // does not come is waited for only until the page is quiet (`PageMeasurer.settle`).
            guard event.params["name"]?.string == "DOMContentLoaded", let frame = event.params["frameId"]?.string,
                  state.withLockedValue({ $0.measuringFrame == frame }) else { return }
            watcher(frame: frame)?.contentLoaded()
        case "Page.frameAttached":
            if let frame = event.params["frameId"]?.string { state.withLockedValue { _ = $0.frames.insert(frame) } }
        case "Runtime.executionContextCreated":
            if let id = event.params["context"]?["id"]?.number, let frame = event.params["context"]?["auxData"]?["frameId"]?.string {
                let world = event.params["context"]?["name"]?.string == MeasureScript.world
                state.withLockedValue { state in
                    state.contexts[Int(id)] = frame
                    if world { state.worlds[frame] = Int(id) }
                }
            }
        case "Runtime.executionContextDestroyed":
            if let id = event.params["executionContextId"]?.number {
                state.withLockedValue { state in state.worlds = state.worlds.filter { $0.value != Int(id) } }
            }
        case "Page.frameNavigated":
            // What no request shows: a navigation to about:blank, data: or javascript:.
            guard let frame = event.params["frame"]?["id"]?.string, let url = event.params["frame"]?["url"]?.string else { return }
            let refused: String? = state.withLockedValue { state in
                guard let expected = state.expected else { return nil }
                if frame == mainFrame, url != expected.host { return "it navigated the page dppx shows it in to \(url) (refused)" }
                if frame == state.measuringFrame, !samePage(url, expected.page) { return "it navigated its own frame to \(url) (refused)" }
                return nil
            }
            if let refused { watcher(frame: nil)?.refused(refused) }
        case "Page.javascriptDialogOpening":
            // Nobody answers a page's alert(), confirm() or prompt() here: dismissed at once (a
            // dialog left open holds the page's script, its load and the tab). Leaving a page
            // (beforeunload) is accepted.
            let leaving = event.params["type"]?.string == "beforeunload"
            Task { _ = try? await connection.send("Page.handleJavaScriptDialog", ["accept": .bool(leaving)], session: session) }
        case "Runtime.exceptionThrown":
            let details = event.params["exceptionDetails"]
            let frame = details?["executionContextId"]?.number.flatMap { id in state.withLockedValue { $0.contexts[Int(id)] } }
            let message = details?["exception"]?["description"]?.string ?? details?["text"]?.string ?? "an uncaught exception"
            let place = details?["url"]?.string.flatMap(responder.rootPath(of:)).map { " (\($0):\(Int(details?["lineNumber"]?.number ?? 0) + 1))" } ?? ""
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
