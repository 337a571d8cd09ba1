import DPPXFiles
import Foundation
import SystemPackage

/// Where the CLI's text goes: data on stdout, messages on stderr, never mixed.
enum Terminal {
    static let stderrIsTerminal = FileDescriptor.standardError.isTerminal
    private static let lock = NSLock()

    static func out(_ line: String) {
        lock.withLock { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }

    static func error(_ message: String) {
        lock.withLock { FileHandle.standardError.write(Data("dppx: error: \(message)\n".utf8)) }
    }

    static func warning(_ message: String) {
        lock.withLock { FileHandle.standardError.write(Data("dppx: warning: \(message)\n".utf8)) }
    }

    static func note(_ message: String) {
        lock.withLock { FileHandle.standardError.write(Data("dppx: note: \(message)\n".utf8)) }
    }

    /// Rewrites the live status line on stderr (terminals only).
    static func status(_ text: String) {
        lock.withLock { FileHandle.standardError.write(Data("\r\u{1B}[2K\(text)".utf8)) }
    }

    static func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        out(String(decoding: data, as: UTF8.self))
    }
}
