import ArgumentParser
import DPPXCore
import Foundation

/// Exit statuses every subcommand shares: Makefiles and CI scripts depend on them.
enum ExitStatus {
    /// Everything asked for was done.
    static let success: Int32 = 0
    /// The command ran, but some inputs failed (each named on stderr), or `--check` found stale output.
    static let failure: Int32 = 1
    /// The command line was wrong: nothing was done.
    static let usage: Int32 = 2
}

extension AsyncParsableCommand {
    /// Like `main()`, but usage errors exit with 2 (ArgumentParser's default is 64) and
    /// errors print one clean line to stderr.
    static func mainWithUsageExitCode(arguments: [String]) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .validationFailure {
                if !message.isEmpty { FileHandle.standardError.write(Data((errorLine(message) + "\n").utf8)) }
                Foundation.exit(ExitStatus.usage)
            }
            if code != .success, message.hasPrefix(Self.parserErrorPrefix) {
                FileHandle.standardError.write(Data((errorLine(message) + "\n").utf8))
                Foundation.exit(code.rawValue)
            }
            exit(withError: error)
        }
    }

    /// How ArgumentParser starts an error message.
    private static var parserErrorPrefix: String { "Error: " }

    /// `message` starting `dppx: error:` like every other error dppx prints, rather than
    /// ArgumentParser's `Error:`.
    static func errorLine(_ message: String) -> String {
        let shown = TerminalText.printable(message, keepingLineBreaks: true)
        guard shown.hasPrefix(parserErrorPrefix) else { return shown }
        return "dppx: error: " + shown.dropFirst(parserErrorPrefix.count)
    }
}
