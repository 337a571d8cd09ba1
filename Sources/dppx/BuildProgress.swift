import DPPXBuild
import Foundation

/// Shows a build as it goes: a live `done/total, images/s` line on a terminal, plain lines
/// otherwise; failures and warnings always go to stderr.
final class BuildProgress: @unchecked Sendable {
    enum Mode { case normal, errorsOnly, silent }

    private let mode: Mode
    private let live: Bool
    private let lock = NSLock()
    private var total = 0
    private var done = 0
    private let start = Date()
    private var showingStatus = false

    init(mode: Mode) {
        self.mode = mode
        self.live = mode == .normal && Terminal.stderrIsTerminal
    }

    var handle: @Sendable (BuildEvent) -> Void { { [self] event in self.receive(event) } }

    private func receive(_ event: BuildEvent) {
        lock.withLock {
            switch event {
            case .started(let total, _):
                self.total = total
            case .built(let source, let variants):
                done += 1
                if mode == .normal && !live { Terminal.out("built \(source) (\(variants) file\(variants == 1 ? "" : "s"))") }
            case .failed(let failure):
                done += 1
                clearStatus()
                if mode != .silent { Terminal.error(failure.description) }
            case .warning(let warning):
                clearStatus()
                if mode == .normal { Terminal.warning(warning.description) }
            }
            if live {
                let elapsed = max(Date().timeIntervalSince(start), 0.001)
                Terminal.status(String(format: "[%d/%d] %.1f images/s", done, total, Double(done) / elapsed))
                showingStatus = true
            }
        }
    }

    private func clearStatus() {
        if showingStatus {
            Terminal.status("")
            showingStatus = false
        }
    }

    /// Clears the live line before the summary.
    func finish() {
        lock.withLock { clearStatus() }
    }
}
