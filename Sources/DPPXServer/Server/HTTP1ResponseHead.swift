import HTTPTypes
import NIOCore

/// An answer's head as HTTP/1.1 bytes: `HTTP/1.1 200 OK`, one `Name: value` line per field in
/// order, `Connection` when the connection's fate needs saying, `X-Content-Type-Options:
/// nosniff` (on every answer, so a browser never takes a file for a page or script its
/// `Content-Type` does not say), `Date` last, the blank line.
///
/// The field lines of a file's full answer are the same for every request for that version of
/// the file, so they are encoded once (`AnswerHeaderCache`); only the status line, `Date` and
/// `Connection` are written per request. NIO's `HTTPResponseEncoder` cost 1-2.5 µs more per small
/// answer (8-15 % of the icon's), measured side by side in BENCHMARKS.md (bench/serve).
enum HTTP1ResponseHead {
    /// What the head says about the connection.
    enum Connection {
        /// Nothing: HTTP/1.1's default, kept open.
        case unsaid
        /// `Connection: keep-alive`: an HTTP/1.0 client that asked to keep it open.
        case keepAlive
        /// `Connection: close`: closed after this answer.
        case close
    }

    /// The field lines of `fields` (each ending in CRLF), without the status line, `Date` and
    /// the blank line.
    static func fieldLines(_ fields: HTTPFields, omittingContentLength: Bool = false) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(fields.count * 40)
        for field in fields where !(omittingContentLength && field.name == .contentLength) {
            buffer.writeString(field.name.rawName)
            buffer.writeStaticString(": ")
            buffer.writeString(field.value)
            buffer.writeStaticString("\r\n")
        }
        return buffer
    }

    /// The whole head: status line, `fieldLines`, `Connection`, `nosniff`, `Date: date`, blank line.
    static func encode(status: HTTPResponse.Status, fieldLines: ByteBuffer, connection: Connection, date: String,
                       allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: fieldLines.readableBytes + date.utf8.count + 104)
        switch status.code {
        case 200: buffer.writeStaticString("HTTP/1.1 200 OK\r\n")
        default:
            buffer.writeStaticString("HTTP/1.1 ")
            buffer.writeString(String(status.code))
            buffer.writeStaticString(" ")
            buffer.writeString(status.reasonPhrase)
            buffer.writeStaticString("\r\n")
        }
        buffer.writeImmutableBuffer(fieldLines)
        switch connection {
        case .unsaid: break
        case .keepAlive: buffer.writeStaticString("Connection: keep-alive\r\n")
        case .close: buffer.writeStaticString("Connection: close\r\n")
        }
        buffer.writeStaticString("X-Content-Type-Options: nosniff\r\n")
        buffer.writeStaticString("Date: ")
        buffer.writeString(date)
        buffer.writeStaticString("\r\n\r\n")
        return buffer
    }
}
