import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// The DevTools protocol over `--remote-debugging-pipe`: Chromium reads commands from its file
/// descriptor 3 and writes answers and events to its 4, each message JSON text ended by a NUL
/// byte. No port is opened, so the browser needs no network at all (it runs in a network
/// namespace of its own where one can be made, see `BrowserConfinement`), and no other program
/// on the machine can connect to it. When dppx ends, even by SIGKILL, the browser reads the end
/// of its command pipe and quits.
///
/// Every received message goes to `onText`, on the pipe's event loop, in order; `onClose` is
/// called once when the browser's end of the pipe closes (the browser ended).
final class PipeTransport: Sendable {
    /// The largest message accepted: a DevTools answer holding a page's measurements is a few
    /// hundred KB; a screenshot would be megabytes.
    static let maximumMessageSize = 1 << 27

    private let channel: any Channel

    private init(channel: any Channel) { self.channel = channel }

    /// Takes over `input` (the browser's answers) and `output` (its commands), which the event
    /// loop closes when the transport closes.
    static func open(input: Int32, output: Int32, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
                     onText: @escaping @Sendable (String) -> Void,
                     onClose: @escaping @Sendable ((any Error)?) -> Void) async throws(MeasureError) -> PipeTransport {
        do {
            let channel = try await NIOPipeBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NULFramer()))
                        try channel.pipeline.syncOperations.addHandler(MessageHandler(onText: onText, onClose: onClose))
                    }
                }
                .takingOwnershipOfDescriptors(input: input, output: output).get()
            return PipeTransport(channel: channel)
        } catch {
            throw .browser("could not read its DevTools pipe: \(error)")
        }
    }

    /// Sends one message.
    func send(_ text: String) async throws(MeasureError) {
        var buffer = channel.allocator.buffer(capacity: text.utf8.count + 1)
        buffer.writeString(text)
        buffer.writeInteger(UInt8(0))
        do { try await channel.writeAndFlush(buffer) } catch { throw .browser("the DevTools pipe failed while sending: \(error)") }
    }

    /// Closes both ends: the browser reads the end of its commands and quits.
    func close() async {
        try? await channel.close()
    }

    /// Starts closing both ends, without waiting.
    func closeAtOnce() {
        channel.close(promise: nil)
    }

    /// Splits the stream at NUL bytes.
    struct NULFramer: ByteToMessageDecoder {
        typealias InboundOut = ByteBuffer

        mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
            guard let end = buffer.readableBytesView.firstIndex(of: 0) else {
                if buffer.readableBytes > PipeTransport.maximumMessageSize {
                    throw MeasureError.browser("a DevTools message longer than \(PipeTransport.maximumMessageSize) bytes")
                }
                return .needMoreData
            }
            let message = buffer.readSlice(length: end - buffer.readerIndex)!
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(message))
            return .continue
        }

        mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
            while try decode(context: context, buffer: &buffer) == .continue {}
            return .needMoreData
        }
    }

    /// Hands each message on, and says once when the pipe ends.
    final class MessageHandler: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer

        private let onText: @Sendable (String) -> Void
        private let onClose: @Sendable ((any Error)?) -> Void
        private let closed = NIOLockedValueBox(false)

        init(onText: @escaping @Sendable (String) -> Void, onClose: @escaping @Sendable ((any Error)?) -> Void) {
            self.onText = onText
            self.onClose = onClose
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            onText(String(buffer: unwrapInboundIn(data)))
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
            if closed.withLockedValue({ closed in defer { closed = true }; return !closed }) { onClose(error) }
        }
    }
}
