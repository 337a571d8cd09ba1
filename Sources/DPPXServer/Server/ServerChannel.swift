import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// An HTTP/1.1 connection of `dppx serve`, set up through Hummingbird's `HTTPServerBuilder`.
/// From the socket inwards:
/// 1. `CloseAfterWritesHandler`: a close waits for the bytes already written;
/// 2. NIO's HTTP/1 encoder and decoder (Hummingbird's limits);
/// 3. `ConnectionHandler`: every answer outside `/_dppx/` decided and written, the timeouts;
/// 4. for `/_dppx/` only: the conversion to Swift HTTP types, Hummingbird's connection state
///    handler (its idle timeout off: `ConnectionHandler` keeps time) and the async channel its
///    router reads requests from.
struct ServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// The connection's timeout (`ConnectionHandler`), and the longest a close waits for unsent bytes.
    let timeout: TimeAmount
    let files: StaticResponder
    let accessLogger: Logger?

    /// The server builder for `Application(server:)`.
    static func builder(timeout: TimeAmount, files: StaticResponder, accessLogger: Logger?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ServerChannel(responder: responder, timeout: timeout, files: files, accessLogger: accessLogger)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let defaults = HTTP1Channel.Configuration().httpDecoder
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = defaults.maxHeaderFieldSize
            limits.maxHeaderListSize = defaults.maxHeaderListSize
            limits.maxHeaderFieldCount = defaults.maxHeaderFieldCount
            // Small reads, one per wake-up: what a read holds is parsed into request heads at
            // once, and those wait here for a client that does not read its answers.
            try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: ConnectionHandler.readSizes)
            try channel.syncOptions?.setOption(ChannelOptions.maxMessagesPerRead, value: 1)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(CloseAfterWritesHandler(maximumWait: timeout))
            // Not NIO's `configureHTTPServerPipeline`: that pairs the decoder with the encoder so
            // the encoder learns each request's method, and requests answered before the encoder
            // would leave its list behind. `ConnectionHandler` drops bodies of answers to HEAD.
            try pipeline.addHandler(HTTPResponseEncoder(configuration: .init()))
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes,
                                                                             informationalResponseStrategy: .drop,
                                                                             limitConfiguration: limits)))
            try pipeline.addHandler(ConnectionHandler(responder: files, accessLogger: accessLogger, timeout: timeout))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
