import DPPXMeasure
import Foundation
import ServiceLifecycle
import UnixSignals

/// The impatient user's way out of `dppx build --watch`: the first Ctrl-C (or SIGTERM) shuts
/// the development loop down gracefully, letting a build in progress finish; a second one,
/// before it has, exits at once with 130, as shells expect of an interrupted command.
///
/// Listed first in its `ServiceGroup`, it is shut down last (services stop in reverse order),
/// so it listens for as long as the others take to stop.
struct SecondSignalExit: Service {
    func run() async throws {
        var received = 0
        for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm).cancelOnGracefulShutdown() {
            received += 1
            guard received > 1 else { continue }
            Browser.stopAll()
            Terminal.error("interrupted during a build; the next build removes its temporary files")
            BrowserSignals.exitNow(130)
        }
    }
}
