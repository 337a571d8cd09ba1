import HTTPTypes
import NIOCore

/// Writes one connection's answers as HTTP/1.1 bytes: the head (`HTTP1ResponseHead`, with this
/// second's `Date`), then the body (`AnswerPieces`). It needs nothing but the answer: each file
/// part carries what reads it (`FileSlice`). What the connection does around an answer (what
/// waits for it, when it closes, its access-log line) is `ConnectionHandler`'s.
struct AnswerWriter {
    private var date = DateHeader()

    /// What became of an answer handed to `start`.
    enum Start {
        /// Written whole, with no promise: a head and `bodyBytes` of body in memory.
        case written(bodyBytes: Int)
        /// Its pieces, to be written (`AnswerPieces.write`) once the connection has noted the
        /// files they hold open.
        case pieces(AnswerPieces)
    }

    /// Starts writing `answer` (its events aside) to `context`'s next outbound handler, its head
    /// saying `connection`. The common answer, a head and at most one small body in memory that
    /// nothing `awaits` (no close after it), is written here with no promise; any other is
    /// returned as its pieces.
    mutating func start(_ answer: Answer, connection: HTTP1ResponseHead.Connection, awaited: Bool,
                        context: ChannelHandlerContext) -> Start {
        let head = head(status: answer.status, fieldLines: answer.fieldLines, connection: connection,
                        allocator: context.channel.allocator)
        let parts = answer.body.parts
        // Each part is looked up in memory once: the first here, the rest in `AnswerPieces`; a
        // file that is not there is then opened, not looked for again.
        let first = parts.first.map(\.bytesToWrite)
        if !awaited, parts.count <= 1 {
            let bytes = first ?? nil
            if parts.isEmpty || (bytes?.readableBytes ?? .max) <= AnswerPieces.pieceSize {
                context.write(NIOAny(IOData.byteBuffer(head)), promise: nil)
                if let bytes { context.write(NIOAny(IOData.byteBuffer(bytes)), promise: nil) }
                return .written(bodyBytes: bytes?.readableBytes ?? 0)
            }
        }
        return .pieces(AnswerPieces(head: head, body: answer.body, firstInMemory: first, eventLoop: context.eventLoop))
    }

    /// An answer's head as bytes, with this second's `Date`.
    mutating func head(status: HTTPResponse.Status, fieldLines: ByteBuffer, connection: HTTP1ResponseHead.Connection,
                       allocator: ByteBufferAllocator) -> ByteBuffer {
        HTTP1ResponseHead.encode(status: status, fieldLines: fieldLines, connection: connection, date: date.now(), allocator: allocator)
    }
}
