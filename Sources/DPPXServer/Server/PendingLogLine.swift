import NIOHTTP1

/// What an answer's access-log line needs until its body is sent: the request's method and
/// target, the status, the negotiated variant, and when the request was taken up, so that the
/// line's duration includes the decision. Made only when there is an access log.
struct PendingLogLine {
    let method: String
    let target: String
    let status: Int
    let variant: String?
    let start: ContinuousClock.Instant

    init(method: String, target: String, status: Int, variant: String?, start: ContinuousClock.Instant) {
        self.method = method
        self.target = target
        self.status = status
        self.variant = variant
        self.start = start
    }

    /// The line of `answer` to `request`, taken up at `start`.
    init(_ request: HTTPRequestHead, _ answer: Answer, start: ContinuousClock.Instant) {
        self.init(method: request.method.rawValue, target: request.uri, status: answer.status.code,
                  variant: answer.variant, start: start)
    }

    /// The finished line, `bytes` of the body sent; `aborted`: the client went away first.
    func entry(bytes: Int, aborted: Bool, now: ContinuousClock.Instant = .now) -> AccessLogEntry {
        AccessLogEntry(method: method, target: target, status: status, bytes: bytes, variant: variant,
                       duration: now - start, aborted: aborted)
    }
}
