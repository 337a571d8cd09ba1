@testable import DPPXServer
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOPosix
import Testing

/// How an answer becomes writes: its pieces from memory and from disk, and the common answer
/// written at once.
@Suite("an answer's writes")
struct AnswerPiecesTests {
    static let head = ByteBuffer(string: "HTTP/1.1 200 OK\r\n\r\n")

    /// `digits.txt` (`0123456789`) of a fresh `ServerFixture`, as a slice.
    static func digits() throws -> (ServerFixture, RootedFileSystem, FileSlice) {
        let fixture = try ServerFixture()
        let files = RootedFileSystem(root: fixture.root)
        let file = try #require(files.entry("digits.txt"))
        return (fixture, files, files.slice("digits.txt", file: file))
    }

    static func close(_ pieces: AnswerPieces) {
        for file in pieces.files { try? file.close() }
    }

    @Test("bytes in memory are cut into pieces of at most pieceSize; a file not in memory is sent from disk, and read into memory for the next answer")
    func memoryAndDisk() throws {
        let (fixture, _, slice) = try Self.digits()
        defer { withExtendedLifetime(fixture) {} }
        let big = ByteBuffer(repeating: UInt8(ascii: "a"), count: 2 * AnswerPieces.pieceSize + 100)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let first = AnswerPieces(head: Self.head, body: AnswerBody([.bytes(big), .file(slice)]), eventLoop: eventLoop)
        defer { Self.close(first) }
        #expect(first.pieces.map(\.readableBytes) == [Self.head.readableBytes, AnswerPieces.pieceSize, AnswerPieces.pieceSize, 100, 10])
        guard case .fileRegion = first.pieces.last else {
            Issue.record("the file is not sent from disk")
            return
        }
        #expect(first.files.count == 1 && first.bodyBytes == big.readableBytes + 10 && !first.isCut)

        #expect(try slice.load(on: eventLoop).wait(), "read into memory meanwhile")
        let second = AnswerPieces(head: Self.head, body: AnswerBody([.file(slice.part(2..<5))]), eventLoop: eventLoop)
        #expect(second.files.isEmpty, "from memory now")
        guard case .byteBuffer(let bytes) = second.pieces.last else {
            Issue.record("not from memory")
            return
        }
        #expect(String(buffer: bytes) == "234")
    }

    @Test("a file part from sentByTheKernelFrom up goes by sendfile even when its bytes are in memory; a smaller one is written from memory")
    func largePartsByTheKernel() throws {
        let fixture = try ServerFixture()
        let files = RootedFileSystem(root: fixture.root)
        let size = AnswerPieces.sentByTheKernelFrom
        try fixture.writeBytes("photo.jpg", Array(repeating: 7, count: size))
        let file = try #require(files.entry("photo.jpg"))
        let slice = files.slice("photo.jpg", file: file)
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        #expect(try slice.load(on: eventLoop).wait(), "in memory")
        #expect(slice.bytesInMemory?.readableBytes == size)

        let whole = AnswerPieces(head: Self.head, body: AnswerBody([.file(slice)]), eventLoop: eventLoop)
        defer { Self.close(whole) }
        guard case .fileRegion(let region) = whole.pieces.last else {
            Issue.record("a \(size)-byte part was copied from memory")
            return
        }
        #expect(region.readableBytes == size && whole.files.count == 1 && whole.bodyBytes == size)

        let smaller = AnswerPieces(head: Self.head, body: AnswerBody([.file(slice.part(2..<size))]), eventLoop: eventLoop)
        defer { Self.close(smaller) }
        guard case .byteBuffer(let bytes) = smaller.pieces.last else {
            Issue.record("a part under sentByTheKernelFrom was not written from memory")
            return
        }
        #expect(bytes.readableBytes == size - 2 && smaller.files.isEmpty)
    }

    @Test("a file replaced since the answer was decided cuts the body short, so the connection closes")
    func replacedFile() throws {
        let (fixture, _, slice) = try Self.digits()
        try FileManager.default.removeItem(atPath: fixture.root + "/digits.txt")
        try fixture.write("digits.txt", "9876543210!")
        let pieces = AnswerPieces(head: Self.head, body: AnswerBody([.bytes(ByteBuffer(string: "<")), .file(slice)]),
                                  eventLoop: MultiThreadedEventLoopGroup.singleton.next())
        #expect(pieces.isCut)
        #expect(pieces.files.isEmpty && pieces.bodyBytes == 1 && pieces.pieces.count == 2)
    }

    @Test("the common answer, a head and one small body in memory that nothing awaits, is written at once; any other is returned as pieces")
    func writtenAtOnce() throws {
        let channel = EmbeddedChannel(handler: ChannelOutboundPassThrough())
        let context = try channel.pipeline.syncOperations.context(handlerType: ChannelOutboundPassThrough.self)
        var writer = AnswerWriter()
        let answer = Answer(status: .ok, headers: [:], bytes: ByteBuffer(string: "hi"), isHead: false)
        guard case .written(let bodyBytes) = writer.start(answer, connection: .unsaid, awaited: false, context: context) else {
            Issue.record("not written at once")
            return
        }
        #expect(bodyBytes == 2)
        channel.flush()
        let head = try #require(try channel.readOutbound(as: IOData.self))
        let body = try #require(try channel.readOutbound(as: IOData.self))
        guard case .byteBuffer(let headBytes) = head, case .byteBuffer(let bodyBytes) = body else {
            Issue.record("not bytes")
            return
        }
        #expect(String(buffer: headBytes).hasPrefix("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Content-Type-Options: nosniff\r\nDate: "))
        #expect(String(buffer: bodyBytes) == "hi")
        guard case .pieces(let pieces) = writer.start(answer, connection: .close, awaited: true, context: context) else {
            Issue.record("an awaited answer written without a promise")
            return
        }
        #expect(pieces.pieces.count == 2 && pieces.bodyBytes == 2)
        channel.flush()
        #expect(try channel.readOutbound(as: IOData.self) == nil, "nothing written yet")
    }
}

/// A handler that does nothing, for its context.
private final class ChannelOutboundPassThrough: ChannelOutboundHandler {
    typealias OutboundIn = IOData
}

/// The small parts of writing answers: the `Date` field, the access-log line, the chunks of
/// the live-reload stream.
@Suite("the parts of writing an answer")
struct AnswerWritingPartsTests {
    @Test("the Date field is formatted once a second")
    func dateHeader() {
        var date = DateHeader()
        #expect(date.value(at: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(date.value(at: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(date.value(at: 1) == "Thu, 01 Jan 1970 00:00:01 GMT")
        #expect(date.value(at: 784_111_777) == HTTPDate.format(784_111_777))
    }

    @Test("an access-log line takes the request, the answer and the time since the request was taken up")
    func pendingLogLine() {
        let start = ContinuousClock.now
        var answer = Answer(status: .notFound, headers: [:], bytes: ByteBuffer(), isHead: false)
        answer.variant = "/images/hero@2x.jpg"
        let line = PendingLogLine(HTTPRequestHead(version: .http1_1, method: .GET, uri: "/images/hero.jpg"), answer, start: start)
        let entry = line.entry(bytes: 12, aborted: true, now: start + .milliseconds(3))
        #expect(entry == AccessLogEntry(method: "GET", target: "/images/hero.jpg", status: 404, bytes: 12,
                                        variant: "/images/hero@2x.jpg", duration: .milliseconds(3), aborted: true))
    }

    @Test("live-reload events are chunks over HTTP/1.1, announced in the head; over HTTP/1.0 the body is plain")
    func liveReloadChunks() {
        #expect(String(buffer: LiveReloadStream.chunk(ByteBuffer(string: "data: {}\n\n"))) == "a\r\ndata: {}\n\n\r\n")
        let answer = Answer(status: .ok, fieldLines: ByteBuffer(string: "Content-Type: text/event-stream\r\n"))
        #expect(String(buffer: LiveReloadStream(chunked: true, logLine: nil).fieldLines(of: answer))
                == "Content-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n")
        #expect(String(buffer: LiveReloadStream(chunked: false, logLine: nil).fieldLines(of: answer))
                == "Content-Type: text/event-stream\r\n")
    }
}
