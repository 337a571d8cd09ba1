import NIOCore

/// Holds a connection's close back until every byte written before it has reached the socket.
///
/// A connection is closed once its answers are *written* (graceful shutdown, `Connection: close`,
/// the end of an HTTP/1.0 event stream); bytes NIO still holds for a client that reads slower
/// than the file is sent would be dropped, cutting a download short. This handler is the first
/// in the pipeline, so every answer passes it as bytes.
/// A close first writes an empty buffer behind everything already written: writes complete in
/// order, so when that one completes, all of it was sent, and the close goes on; after
/// `maximumWait` at the latest, so a client that stopped reading cannot hold the shutdown
/// forever. Nothing is counted per write: a request costs this handler nothing.
final class CloseAfterWritesHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Sent as a user outbound event: the next close happens at once, whatever is unsent (a
    /// client that stopped reading).
    struct CloseNow {}

    private let maximumWait: TimeAmount
    private var closesNow = false
    private var heldClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    init(maximumWait: TimeAmount) {
        self.maximumWait = maximumWait
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is CloseNow else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        closesNow = true
        promise?.succeed()
        if heldClose != nil { releaseClose(context) }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard mode == .all, context.channel.isActive, !closesNow else {
            context.close(mode: mode, promise: promise)
            return
        }
        if var held = heldClose {
            // A second close while the first waits: it completes with the first.
            if let promise {
                if let first = held.promise {
                    first.futureResult.cascade(to: promise)
                } else {
                    held.promise = promise
                    heldClose = held
                }
            }
            return
        }
        heldClose = (mode, promise)
        let sent = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer())), promise: sent)
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let timeout = context.eventLoop.assumeIsolated().scheduleTask(in: maximumWait) {
            self.releaseClose(loopBound.value)
        }
        sent.futureResult.assumeIsolated().whenComplete { _ in
            timeout.cancel()
            self.releaseClose(loopBound.value)
        }
    }

    private func releaseClose(_ context: ChannelHandlerContext) {
        guard let held = heldClose else { return }
        heldClose = nil
        context.close(mode: held.mode, promise: held.promise)
    }
}
