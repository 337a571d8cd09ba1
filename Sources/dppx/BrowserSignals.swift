import DPPXMeasure
import Foundation
import UnixSignals

/// Ctrl-C (or SIGTERM) while a command may be running headless Chromium: the browser leads a
/// process group of its own, which the terminal's signal does not reach, so it is ended first
/// and dppx exits with 130, as shells expect of an interrupted command. No browser outlives dppx.
enum BrowserSignals {
    /// Runs `work` with the signals trapped so.
    static func closingOnInterrupt<T: Sendable>(_ work: () async -> T) async -> T {
        let signals = Task {
            for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
                exitInterrupted()
            }
        }
        defer { signals.cancel() }
        return await work()
    }

    /// Ends every browser and exits with 130.
    static func exitInterrupted() -> Never {
        Browser.stopAll()
        Terminal.error("interrupted; the browser was closed, and what was not yet written was not written")
        exit(130)
    }
}
