import NIOCore
import NIOHTTPTypes

/// Holds a connection's close back until every response written before it has reached the
/// socket.
///
/// On graceful shutdown Hummingbird closes each connection as soon as it has *written* the end of
/// its current response; bytes NIO still holds for a client that reads slower than the file is
/// sent would be dropped, cutting a download short. This handler sits between Hummingbird's
/// connection handler and the HTTP encoder, counts responses whose end is written but not yet
/// sent (writes complete in order, so a response's end completing means all of it did), and
/// forwards a close only when that count is zero, or after `maximumWait` so a client that
/// stopped reading cannot hold the shutdown forever.
final class CloseAfterWritesHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let maximumWait: TimeAmount
    private var pendingWrites = 0
    private var heldClose: (mode: CloseMode, promise: EventLoopPromise<Void>?)?

    init(maximumWait: TimeAmount) {
        self.maximumWait = maximumWait
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // Only a response's end is watched: one promise per response rather than per part.
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        let written = promise ?? context.eventLoop.makePromise()
        pendingWrites += 1
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        written.futureResult.assumeIsolated().whenComplete { _ in
            self.pendingWrites -= 1
            if self.pendingWrites == 0 { self.releaseClose(loopBound.value) }
        }
        context.write(data, promise: written)
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard pendingWrites > 0, mode == .all, heldClose == nil else {
            context.close(mode: mode, promise: promise)
            return
        }
        heldClose = (mode, promise)
        // Written bytes only complete once flushed: make sure they are on their way.
        context.flush()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.eventLoop.assumeIsolated().scheduleTask(in: maximumWait) {
            self.releaseClose(loopBound.value)
        }
    }

    private func releaseClose(_ context: ChannelHandlerContext) {
        guard let held = heldClose else { return }
        heldClose = nil
        context.close(mode: held.mode, promise: held.promise)
    }
}
