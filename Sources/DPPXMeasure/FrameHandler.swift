import NIOCore
import NIOWebSocket

/// The WebSocket end of a DevTools connection's pipeline, after NIO's aggregator: hands text
/// messages on, answers pings, and completes a close the browser starts.
final class FrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let onText: @Sendable (String) -> Void
    private let onClose: @Sendable ((any Error)?) -> Void
    private var closed = false

    init(onText: @escaping @Sendable (String) -> Void, onClose: @escaping @Sendable ((any Error)?) -> Void) {
        self.onText = onText
        self.onClose = onClose
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            onText(String(buffer: frame.unmaskedData))
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            let reply = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer())
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            context.writeAndFlush(wrapOutboundOut(reply)).whenComplete { _ in bound.value.close(promise: nil) }
        default:
            break  // binary and pong frames carry nothing the protocol uses
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish(nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        finish(error)
        context.close(promise: nil)
    }

    private func finish(_ error: (any Error)?) {
        guard !closed else { return }
        closed = true
        onClose(error)
    }
}
