import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// An HTTP/1.1 connection as Hummingbird's `HTTP1Channel` sets it up, with dppx's two handlers
/// in it. From the socket inwards:
/// 1. `CloseAfterWritesHandler`: a close waits for the bytes already written;
/// 2. NIO's HTTP/1 encoder and decoder (Hummingbird's limits);
/// 3. `DirectFileHandler`: files in memory answered right here, the idle timeout;
/// 4. the conversion to Swift HTTP types, Hummingbird's connection state handler (graceful
///    shutdown; its idle timeout is off, the direct handler keeps it) and the async channel
///    Hummingbird's responder reads requests from.
struct ServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// How long a connection may stay idle, and the longest a close waits for unsent bytes.
    let idleTimeout: TimeAmount
    /// Nil: every request goes to Hummingbird.
    let directFiles: StaticResponder?
    let accessLogger: Logger?

    /// The server builder for `Application(server:)`.
    static func builder(idleTimeout: TimeAmount, directFiles: StaticResponder?, accessLogger: Logger?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ServerChannel(responder: responder, idleTimeout: idleTimeout, directFiles: directFiles, accessLogger: accessLogger)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let defaults = HTTP1Channel.Configuration().httpDecoder
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = defaults.maxHeaderFieldSize
            limits.maxHeaderListSize = defaults.maxHeaderListSize
            limits.maxHeaderFieldCount = defaults.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(CloseAfterWritesHandler(maximumWait: idleTimeout))
            // Not NIO's `configureHTTPServerPipeline`: it pairs the decoder with the encoder so
            // the encoder learns each request's method, and requests answered by the direct
            // handler would leave the encoder's list behind. The direct handler drops bodies
            // of answers to HEAD instead.
            try pipeline.addHandler(HTTPResponseEncoder(configuration: .init()))
            try pipeline.addHandler(ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes,
                                                                             informationalResponseStrategy: .drop,
                                                                             limitConfiguration: limits)))
            try pipeline.addHandler(DirectFileHandler(responder: directFiles, accessLogger: accessLogger, idleTimeout: idleTimeout))
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
