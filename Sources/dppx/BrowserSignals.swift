import DPPXMeasure
import Foundation
import UnixSignals

/// Ctrl-C (or SIGTERM) while a command runs: dppx exits with 130, as shells expect of an
/// interrupted command. Headless Chromium leads a process group of its own, which the
/// terminal's signal does not reach, so a command that may measure pages ends every browser it
/// started first: no browser outlives dppx. What a build had not yet written is not written;
/// the next run completes the job (an in-place build knows its files from its journal).
enum BrowserSignals {
    /// Runs `work` with the signals trapped so; `measuring`: whether it may start a browser,
    /// which the message then speaks of.
    static func closingOnInterrupt<T: Sendable>(measuring: Bool = true, _ work: () async -> T) async -> T {
        let signals = Task {
            for await _ in await UnixSignalsSequence(trapping: .sigint, .sigterm) {
                exitInterrupted(measuring: measuring)
            }
        }
        defer { signals.cancel() }
        return await work()
    }

    /// Ends every browser and exits with 130.
    static func exitInterrupted(measuring: Bool = true) -> Never {
        Browser.stopAll()
        Terminal.error(measuring
            ? "interrupted; any browser dppx started was closed, and what was not yet written was not written"
            : "interrupted; what was not yet written was not written, and the next run completes the job")
        exitNow(130)
    }

    /// Exits with `status` without running the process's exit handlers: `exit` tears down the
    /// image libraries' static state (libvips, the AVIF and JPEG XL encoders) while a build's
    /// worker threads are still encoding with it, and the process crashed (signal 11) instead
    /// of ending with 130. What was printed is flushed first.
    static func exitNow(_ status: Int32) -> Never {
        fflush(nil)
        _exit(status)
    }
}
