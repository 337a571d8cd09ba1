import DPPXCore
import DPPXFiles
import Foundation
import SystemPackage

/// Where the CLI's text goes: data on stdout, messages on stderr, never mixed. Every message
/// line is made printable here (`TerminalText`): a page's error text or a file's name holds
/// no control character that reaches the terminal.
enum Terminal {
    static let stderrIsTerminal = FileDescriptor.standardError.isTerminal
    private static let lock = NSLock()

    /// A line (or dppx's own lines, such as a summary) on stdout.
    static func out(_ line: String) {
        write(TerminalText.printable(line, keepingLineBreaks: true) + "\n", to: .standardOutput)
    }

    static func error(_ message: String) {
        write("dppx: error: \(TerminalText.printable(message))\n", to: .standardError)
    }

    static func warning(_ message: String) {
        write("dppx: warning: \(TerminalText.printable(message))\n", to: .standardError)
    }

    static func note(_ message: String) {
        write("dppx: note: \(TerminalText.printable(message))\n", to: .standardError)
    }

    /// Rewrites the live status line on stderr (terminals only).
    static func status(_ text: String) {
        write("\r\u{1B}[2K\(TerminalText.printable(text))", to: .standardError)
    }

    private static func write(_ text: String, to handle: FileHandle) {
        lock.withLock { handle.write(Data(text.utf8)) }
    }

    static func printJSON(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return }
        // JSON writes control characters as escapes itself, and its lines are data.
        write(String(decoding: data, as: UTF8.self) + "\n", to: .standardOutput)
    }
}
