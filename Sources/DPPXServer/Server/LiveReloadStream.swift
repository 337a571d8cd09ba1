import NIOCore

/// The live-reload events being sent on one connection (dev mode's `/_dppx/events`, an answer
/// with `events`): an endless answer whose head and first bytes go out at once, then each event
/// as it comes, chunked over HTTP/1.1 (over HTTP/1.0 the connection's close ends the body),
/// until the events end (a graceful shutdown ends them) or the client goes away. Nothing else
/// is taken up on the connection meanwhile (`ConnectionState.Phase.streaming`).
struct LiveReloadStream {
    /// HTTP/1.1: each event is a chunk; HTTP/1.0: the body ends when the connection closes.
    let chunked: Bool
    /// Its access-log line, written when it ends.
    let logLine: PendingLogLine?
    /// Body bytes sent so far.
    private(set) var sentBytes = 0
    /// Reads the events and hands each to the event loop.
    private var task: Task<Void, Never>?

    init(chunked: Bool, logLine: PendingLogLine?) {
        self.chunked = chunked
        self.logLine = logLine
    }

    /// `answer`'s field lines, with `Transfer-Encoding: chunked` when the events are chunks.
    func fieldLines(of answer: Answer) -> ByteBuffer {
        var fieldLines = answer.fieldLines
        if chunked { fieldLines.writeStaticString("Transfer-Encoding: chunked\r\n") }
        return fieldLines
    }

    /// Writes `head` and `answer`'s first bytes to `context`'s next outbound handler, unflushed.
    mutating func writeStart(head: ByteBuffer, of answer: Answer, to context: ChannelHandlerContext) {
        context.write(NIOAny(IOData.byteBuffer(head)), promise: nil)
        for case .bytes(let bytes) in answer.body.parts {
            context.write(NIOAny(IOData.byteBuffer(chunked ? Self.chunk(bytes) : bytes)), promise: nil)
            sentBytes += bytes.readableBytes
        }
    }

    /// Reads `events`, handing each to `onEvent` on `eventLoop`, then calls `onEnd` there.
    mutating func start(_ events: AsyncStream<String>, on eventLoop: any EventLoop,
                        onEvent: @escaping @Sendable (String) -> Void, onEnd: @escaping @Sendable () -> Void) {
        task = Task {
            for await text in events {
                eventLoop.execute { onEvent(text) }
            }
            eventLoop.execute { onEnd() }
        }
    }

    /// Writes and flushes one event.
    mutating func write(_ text: String, to context: ChannelHandlerContext) {
        let bytes = ByteBuffer(string: text)
        context.writeAndFlush(NIOAny(IOData.byteBuffer(chunked ? Self.chunk(bytes) : bytes)), promise: nil)
        sentBytes += bytes.readableBytes
    }

    /// Writes the end of the body, unflushed: the last chunk; nothing (false) when the
    /// connection's close ends it.
    func writeEnd(to context: ChannelHandlerContext) -> Bool {
        guard chunked else { return false }
        context.write(NIOAny(IOData.byteBuffer(ByteBuffer(string: "0\r\n\r\n"))), promise: nil)
        return true
    }

    /// Stops reading the events (the connection closed).
    func cancel() {
        task?.cancel()
    }

    /// `bytes` as one chunk of a chunked body.
    static func chunk(_ bytes: ByteBuffer) -> ByteBuffer {
        var framed = ByteBuffer()
        framed.reserveCapacity(bytes.readableBytes + 12)
        framed.writeString(String(bytes.readableBytes, radix: 16))
        framed.writeStaticString("\r\n")
        framed.writeImmutableBuffer(bytes)
        framed.writeStaticString("\r\n")
        return framed
    }
}
