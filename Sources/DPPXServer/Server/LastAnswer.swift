import NIOHTTP1

/// The last answer given on a connection, for a client that sends the same request again (a
/// reload, a poll, a benchmark): the decision costs more than the rest of the request. Kept only
/// for an answer that follows from ROOT's manifest and one file alone (`Answer.decidedFrom`), and
/// given again only while `Responder.stillHolds` says both are unchanged (one `stat`). Its body's
/// bytes are not kept: its file parts are taken from memory again when it is written.
struct LastAnswer {
    let request: HTTPRequestHead
    let answer: Answer
    /// What the answer was decided from.
    let source: Answer.Source

    /// Nil when `answer` cannot be given again.
    init?(_ answer: Answer, to request: HTTPRequestHead) {
        guard let source = answer.decidedFrom else { return nil }
        self.request = request
        self.answer = answer
        self.source = source
    }

    /// Whether `head` is the same request again: method, target, version and every header, in
    /// order.
    func isRepeated(by head: HTTPRequestHead) -> Bool {
        head.method == request.method && head.uri == request.uri && head.version == request.version
            && head.headers.elementsEqual(request.headers, by: { $0.name == $1.name && $0.value == $1.value })
    }
}
