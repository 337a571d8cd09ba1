import HTTPTypes
import NIOCore

/// Dev mode's pages: `/_dppx/live.js` and `/_dppx/events` (server-sent events: the latest
/// build status on connect, then `status` and `reload` after each build, for as long as the
/// page stays open).
struct DevelopmentPages {
    let session: DevelopmentSession

    /// The answer for `path` when it is one of dev mode's pages; nil otherwise.
    func answer(to path: String, isHead: Bool) -> Answer? {
        switch path {
        case LiveReloadScript.path:
            ServerPages.text(LiveReloadScript.source, contentType: "text/javascript; charset=utf-8", cacheControl: "no-store",
                             isHead: isHead)
        case LiveReloadScript.eventsPath:
            events(isHead: isHead)
        default:
            nil
        }
    }

    private func events(isHead: Bool) -> Answer {
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream; charset=utf-8"
        headers[.cacheControl] = "no-store"
        var answer = Answer(status: .ok, fieldLines: HTTP1ResponseHead.fieldLines(headers))
        guard !isHead else { return answer }
        let first = "retry: 1000\n\n" + ReloadBroadcaster.frame(event: "status", data: session.latestStatus.json)
        answer.body = AnswerBody([.bytes(ByteBuffer(string: first))])
        answer.events = session.broadcaster.subscribe()
        return answer
    }
}
