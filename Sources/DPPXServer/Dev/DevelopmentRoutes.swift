import HTTPTypes
import Hummingbird

/// Dev mode's endpoints: `/_dppx/live.js` and `/_dppx/events` (server-sent events: the latest
/// build status on connect, then `status` and `reload` after each build).
struct DevelopmentRoutes {
    let session: DevelopmentSession

    func register<Context: RequestContext>(on router: Router<Context>) {
        router.get(RouterPath(LiveReloadScript.path)) { _, _ in
            ServerPages.text(LiveReloadScript.source, contentType: "text/javascript; charset=utf-8", cacheControl: "no-store")
        }
        router.get(RouterPath(LiveReloadScript.eventsPath)) { _, _ in
            events()
        }
    }

    private func events() -> Response {
        let stream = session.broadcaster.subscribe()
        let first = "retry: 1000\n\n" + ReloadBroadcaster.frame(event: "status", data: session.latestStatus.json)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: first))
            for await text in stream {
                try await writer.write(ByteBuffer(string: text))
            }
            try await writer.finish(nil)
        })
    }
}
