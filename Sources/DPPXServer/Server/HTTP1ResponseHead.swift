import HTTPTypes
import NIOCore

/// A response head as HTTP/1.1 bytes, the way Hummingbird's path writes it (Swift HTTP types
/// converted to NIO's, then NIO's encoder): `HTTP/1.1 200 OK`, one `Name: value` line per field
/// in order, names as given, no `Content-Length` on a 304, `Date` last.
///
/// `DirectFileHandler` writes these itself; a test compares them with Hummingbird's answers
/// byte for byte.
enum HTTP1ResponseHead {
    /// The field lines of `fields` (each ending in CRLF), without the status line, `Date` and
    /// the blank line; the same for every request for a version of a file, so they are kept.
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

    /// The whole head: status line, `fieldLines`, `Date: date`, blank line.
    static func encode(status: HTTPResponse.Status, fieldLines: ByteBuffer, date: String,
                       allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: fieldLines.readableBytes + date.utf8.count + 48)
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
        buffer.writeStaticString("Date: ")
        buffer.writeString(date)
        buffer.writeStaticString("\r\n\r\n")
        return buffer
    }
}

extension StaticResponder.PreparedFile {
    /// `headers` as the field lines NIO's encoder would write for `status`: the lines kept with
    /// the file's headers for a 200, the same without `Content-Length` for a 304 (which has no
    /// body), and the range's headers encoded now for a 206 (the only answer that changes them).
    var http1FieldLines: ByteBuffer {
        switch status {
        case .notModified: HTTP1ResponseHead.fieldLines(headers, omittingContentLength: true)
        case .partialContent: HTTP1ResponseHead.fieldLines(headers)
        default: cached.fieldLines
        }
    }
}
