import DPPXCore
import Logging

/// `dppx serve`'s log lines on stderr, made printable as `Terminal`'s are (`TerminalText`): a
/// manifest's path or a file's name logged by the server writes no control character to the
/// terminal. Everything else is the wrapped handler's.
struct PrintableLogHandler: LogHandler {
    var wrapped: any LogHandler

    func log(event: LogEvent) {
        var event = event
        let text = event.message.description
        let shown = TerminalText.printable(text)
        if shown != text { event.message = Logger.Message(stringLiteral: shown) }
        wrapped.log(event: event)
    }

    var metadataProvider: Logger.MetadataProvider? {
        get { wrapped.metadataProvider }
        set { wrapped.metadataProvider = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { wrapped[metadataKey: key] }
        set { wrapped[metadataKey: key] = newValue }
    }

    var metadata: Logger.Metadata {
        get { wrapped.metadata }
        set { wrapped.metadata = newValue }
    }

    var logLevel: Logger.Level {
        get { wrapped.logLevel }
        set { wrapped.logLevel = newValue }
    }
}
