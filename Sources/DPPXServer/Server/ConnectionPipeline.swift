import NIOCore
import NIOHTTP1

/// The handlers of each HTTP/1.1 connection `dppx serve` accepts. From the socket inwards:
/// 1. `CloseAfterWritesHandler`: a close waits for the bytes already written;
/// 2. NIO's HTTP/1 request decoder;
/// 3. `ConnectionHandler`: every answer decided (`Responder`) and written (`AnswerWriter`),
///    the timeouts.
///
/// No HTTP encoder: each answer is written as bytes (`AnswerWriter`, `HTTP1ResponseHead`),
/// which pass the decoder (NIO's request decoder observes no writes; its response decoder,
/// a client's, does) and go straight to the socket. NIO's `HTTPResponseEncoder` here would
/// take every write for an `HTTPServerResponsePart` and trap on the first bytes.
struct ConnectionPipeline: Sendable {
    /// The connection's timeout (`ConnectionHandler`), and the longest a close waits for unsent bytes.
    let timeout: TimeAmount
    /// Decides every answer, the server's own pages included.
    let responder: Responder
    let accessLog: AccessLog?

    /// Sets up a newly accepted connection.
    func configure(_ channel: any Channel) -> EventLoopFuture<Void> {
        channel.eventLoop.makeCompletedFuture {
            // 80 KB of header lines, at most 1000 of them: far above a browser's, and a bound
            // on what one request can make the server hold.
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = 80 * 1024
            limits.maxHeaderListSize = 80 * 1024
            limits.maxHeaderFieldCount = 1000
            // Small reads, one per wake-up: what a read holds is parsed into request heads at
            // once, and those wait here for a client that does not read its answers.
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: ConnectionHandler.readSizes)
            try channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(CloseAfterWritesHandler(maximumWait: timeout))
            // Not NIO's `configureHTTPServerPipeline`: its encoder and pipelining handler are
            // `ConnectionHandler`'s work here (heads written as bytes, bodies of answers to HEAD
            // dropped, one request taken up at a time).
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes,
                                                                             informationalResponseStrategy: .drop,
                                                                             limitConfiguration: limits)))
            try pipeline.addHandler(ConnectionHandler(responder: responder, accessLog: accessLog, timeout: timeout))
        }
    }
}
