import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// An HTTP/1.1 connection as Hummingbird's `HTTP1Channel` sets it up, with dppx's two handlers
/// in it: `CloseAfterWritesHandler` before Hummingbird's connection state handler, and
/// `InMemoryFileHandler` after it, where it sees whole requests and the state handler still
/// sees its answers.
struct ServerChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>

    let responder: HTTPChannelHandler.Responder
    /// How long a connection may stay idle, and the longest a close waits for unsent bytes.
    let idleTimeout: Duration
    /// Nil: every request goes to Hummingbird.
    let inMemoryFiles: StaticResponder?
    let accessLogger: Logger?

    /// The server builder for `Application(server:)`.
    static func builder(idleTimeout: Duration, inMemoryFiles: StaticResponder?, accessLogger: Logger?) -> HTTPServerBuilder {
        HTTPServerBuilder { responder in
            ServerChannel(responder: responder, idleTimeout: idleTimeout, inMemoryFiles: inMemoryFiles, accessLogger: accessLogger)
        }
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            // Hummingbird's own decoder limits and pipeline options.
            let defaults = HTTP1Channel.Configuration().httpDecoder
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = defaults.maxHeaderFieldSize
            limits.maxHeaderListSize = defaults.maxHeaderListSize
            limits.maxHeaderFieldCount = defaults.maxHeaderFieldCount
            let pipeline = channel.pipeline.syncOperations
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false,
                withErrorHandling: false,
                withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(),
                withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            // A client that reads nothing for the idle timeout does not hold a shutdown longer.
            let idle = TimeAmount.nanoseconds(idleTimeout.components.seconds * 1_000_000_000 + idleTimeout.components.attoseconds / 1_000_000_000)
            try pipeline.addHandler(CloseAfterWritesHandler(maximumWait: idle))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: idleTimeout, logger: logger))
            if let inMemoryFiles {
                try pipeline.addHandler(InMemoryFileHandler(responder: inMemoryFiles, accessLogger: accessLogger))
            }
            return try NIOAsyncChannel(wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}
