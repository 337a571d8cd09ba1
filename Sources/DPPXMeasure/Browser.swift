import DPPXFiles
import Foundation
import NIOConcurrencyHelpers

/// One headless Chromium for a whole run, started with a profile of its own and always ended:
/// by `stop()`, or by `stopAll()` from a signal handler (Ctrl-C), so no browser outlives dppx.
public final class Browser: Sendable {
    /// The names looked for on PATH, in order.
    public static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
    /// What to tell a user without one.
    public static let installHint = "no Chromium found (looked for \(names.joined(separator: ", ")) on PATH): install it (apt install chromium) or pass --browser PATH"
    /// How long the browser may take to say where its DevTools endpoint is.
    public static let startTimeout: Duration = .seconds(30)

    /// The flags of every run. `--no-sandbox`: Chromium refuses to start as root with its
    /// sandbox, and every page it loads is the user's own, every request answered by dppx
    /// (nothing reaches the network). No `--hide-scrollbars`: pages are measured with and
    /// without classic scrollbars, which `MeasureScript` turns off per page (`Scrollbars`).
    static func arguments(profile: String, adding extra: [String] = []) -> [String] {
        extra + [
            "--headless", "--remote-debugging-port=0", "--user-data-dir=\(profile)",
            "--no-sandbox", "--no-first-run", "--no-default-browser-check", "--disable-gpu",
            "--disable-dev-shm-usage", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--mute-audio",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows", "about:blank",
        ]
    }

    /// The executable: `explicit` when given, else the first of `names` on PATH.
    public static func find(explicit: String?, path: String? = ProcessInfo.processInfo.environment["PATH"]) throws(MeasureError) -> String {
        if let explicit {
            guard FileStatus.isExecutableFile(explicit) else {
                throw .noBrowser("--browser \(explicit): not an executable file; install Chromium (apt install chromium) or name its executable")
            }
            return explicit
        }
        for name in names {
            for folder in (path ?? "").split(separator: ":") where !folder.isEmpty {
                let candidate = folder + "/" + name
                if FileStatus.isExecutableFile(candidate) { return candidate }
            }
        }
        throw .noBrowser(installHint)
    }

    /// The DevTools connection.
    public let connection = DevToolsConnection()
    private let process: Process
    /// The group Chromium leads (it makes one for its renderers and helpers).
    private let group: NIOLockedValueBox<ProcessGroup?>
    private let profile: TemporaryFolder

    private static let running = NIOLockedValueBox<[ObjectIdentifier: Browser]>([:])
    private static let interruption = NIOLockedValueBox(false)

    /// Whether `stopAll()` has run: the failures that follow are the interruption's.
    public static var interrupted: Bool { interruption.withLockedValue { $0 } }

    private init(process: Process, profile: TemporaryFolder) {
        self.process = process
        self.group = NIOLockedValueBox(nil)
        self.profile = profile
    }

    /// Starts `executable` and connects to it. `extraArguments` are flags of a caller's own
    /// (the browser tests hide scrollbars, as their pages are laid out without them).
    public static func start(executable: String, extraArguments: [String] = []) async throws(MeasureError) -> Browser {
        let profile: TemporaryFolder
        do { profile = try TemporaryFolder(prefix: "dppx-measure-") } catch {
            throw .browser("could not make its profile folder: \(error)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments(profile: profile.path, adding: extraArguments)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        let endpoint = EndpointReader(errors.fileHandleForReading)
        do { try process.run() } catch {
            profile.remove()
            throw .browser("\(executable) did not start: \(error)")
        }
        let browser = Browser(process: process, profile: profile)
        browser.group.withLockedValue { $0 = ProcessGroup(leader: process.processIdentifier) }
        running.withLockedValue { $0[ObjectIdentifier(browser)] = browser }
        do {
            guard let url = await endpoint.address(within: startTimeout) else {
                throw MeasureError.browser("\(executable) did not open its DevTools endpoint within \(startTimeout) (its last words: \(endpoint.lastLines))")
            }
            try await browser.connection.connect(to: url)
        } catch let error as MeasureError {
            await browser.stop()
            throw error
        } catch {
            await browser.stop()
            throw .browser("\(error)")
        }
        return browser
    }

    /// Closes the browser: politely over the protocol, then by SIGTERM, and removes its profile.
    public func stop() async {
        guard Self.running.withLockedValue({ $0.removeValue(forKey: ObjectIdentifier(self)) }) != nil else { return }
        if process.isRunning {
            _ = try? await withTimeout(.seconds(2)) { try await self.connection.send("Browser.close") }
        }
        await connection.close()
        end()
    }

    /// Ends every browser still running, at once: for a signal handler, before exiting. From
    /// then on `interrupted` is true, and a measurement in progress writes nothing.
    public static func stopAll() {
        interruption.withLockedValue { $0 = true }
        for browser in running.withLockedValue({ running in defer { running = [:] }; return Array(running.values) }) {
            browser.end()
        }
    }

    /// Ends the browser and every process it started (renderers outlive it for a moment, a
    /// renderer stuck in a script's endless loop longer), then removes its profile.
    private func end() {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        group.withLockedValue { $0 }?.end()
        profile.remove()
    }
}

/// Reads Chromium's stderr for `DevTools listening on ws://...`, and keeps reading it so the
/// browser never blocks on a full pipe.
private final class EndpointReader: Sendable {
    private struct State {
        var address: String?
        var ended = false
        var lines: [String] = []
        var waiter: CheckedContinuation<String?, Never>?
    }

    private let state = NIOLockedValueBox(State())
    private static let marker = "DevTools listening on "

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // read(2) itself: FileHandle.availableData traps on EINTR, which a signal
                // arriving while Chromium is quiet gives.
                let count = buffer.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    self.take(line)
                }
            }
            self.finish()
        }
        thread.start()
    }

    var lastLines: String { state.withLockedValue { $0.lines.suffix(3).joined(separator: " / ") } }

    func address(within limit: Duration) async -> String? {
        let timer = Task {
            try? await Task.sleep(for: limit)
            self.finish()
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            state.withLockedValue { state in
                if state.address != nil || state.ended { continuation.resume(returning: state.address) } else { state.waiter = continuation }
            }
        }
    }

    private func take(_ line: String) {
        state.withLockedValue { state in
            guard state.address == nil else { return }
            if let range = line.range(of: Self.marker) {
                state.address = String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
                state.waiter?.resume(returning: state.address)
                state.waiter = nil
            } else {
                state.lines = Array((state.lines + [line]).suffix(5))
            }
        }
    }

    private func finish() {
        state.withLockedValue { state in
            state.ended = true
            state.waiter?.resume(returning: state.address)
            state.waiter = nil
        }
    }
}
