import NIOCore

/// An answer's bytes as the writes that send it: its head, then each part of its body from
/// memory when its bytes are there, or else as regions of its file, opened here and sent by the
/// kernel (`sendfile`), in pieces of at most `pieceSize` whose completions count as progress.
/// Made before anything is written, so the connection knows the files it holds first.
struct AnswerPieces {
    /// Bodies are written in pieces of this size, each one's completion counting as progress.
    static let pieceSize = 256 * 1024

    /// A file part this large is sent from the file by the kernel (`sendfile`) even when its
    /// bytes are in memory: writing them from memory copies them into the socket's buffer, which
    /// cost a 200 KB photo about 20 µs of CPU an answer (bench/serve); below this, the open and
    /// close of the file cost more than the copy.
    static let sentByTheKernelFrom = 64 * 1024

    private(set) var pieces: [IOData]
    /// The files opened for the body: closed once it is sent.
    private(set) var files: [NIOFileHandle] = []
    /// Body bytes in `pieces`.
    private(set) var bodyBytes = 0
    /// A file was replaced since the answer was decided: the body stops short of what the head
    /// promised, and only closing the connection tells the client it is incomplete.
    private(set) var isCut = false

    /// `firstInMemory`: the first part's bytes in memory when they were looked up already
    /// (`.some(nil)`: not there), so no part is looked up twice. A small file sent from disk
    /// is read into memory meanwhile, on NIO's thread pool (completing on `eventLoop`), so the
    /// next answers take it from there.
    init(head: ByteBuffer, body: AnswerBody, firstInMemory: ByteBuffer?? = nil, eventLoop: any EventLoop) {
        pieces = [.byteBuffer(head)]
        for (index, part) in body.parts.enumerated() {
            let inMemory = index == 0 ? firstInMemory ?? part.bytesToWrite : part.bytesToWrite
            if let bytes = inMemory {
                var rest = bytes
                while let piece = rest.readSlice(length: min(rest.readableBytes, Self.pieceSize)), piece.readableBytes > 0 {
                    pieces.append(.byteBuffer(piece))
                }
                bodyBytes += bytes.readableBytes
            } else if case .file(let slice) = part, let file = slice.open() {
                files.append(file)
                var offset = slice.range.lowerBound
                while offset < slice.range.upperBound {
                    let end = min(offset + Self.pieceSize, slice.range.upperBound)
                    pieces.append(.fileRegion(FileRegion(fileHandle: file, readerIndex: offset, endIndex: end)))
                    offset = end
                }
                bodyBytes += slice.range.count
                if slice.fitsInMemory, slice.range.count < Self.sentByTheKernelFrom { _ = slice.load(on: eventLoop) }
            } else {
                isCut = true
                break
            }
        }
    }

    /// Writes the pieces to `context`'s next outbound handler: `progressed` runs as each but
    /// the last reaches the socket. The future completes once the last has (or the writes
    /// failed), the files closed by then.
    func write(to context: ChannelHandlerContext, progressed: @escaping () -> Void) -> EventLoopFuture<Void> {
        let done = context.eventLoop.makePromise(of: Void.self)
        for (index, piece) in pieces.enumerated() {
            let isLast = index == pieces.count - 1
            let promise = isLast ? done : context.eventLoop.makePromise(of: Void.self)
            if !isLast { promise.futureResult.assumeIsolated().whenSuccess { progressed() } }
            context.write(NIOAny(piece), promise: promise)
        }
        let files = self.files
        done.futureResult.assumeIsolated().whenComplete { _ in
            for file in files { try? file.close() }
        }
        return done.futureResult
    }
}
