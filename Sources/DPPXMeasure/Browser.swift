import DPPXFiles
import Foundation
import NIOConcurrencyHelpers

/// One headless Chromium for a whole run, started with a profile of its own and always ended:
/// by `stop()`, by `stopAll()` from a signal handler (Ctrl-C), or, when dppx is killed, by
/// itself: it talks DevTools over a pipe (`PipeTransport`) and quits when dppx's end closes.
///
/// It runs under a small shell that removes its profile when it ends, so a SIGKILL of dppx
/// leaves no browser and no folder behind. Its `TMPDIR` is its profile (Chromium's own
/// temporary folders go there). Where namespaces can be made it has no network, keeps its
/// sandbox as root, and its helpers end with it (`BrowserConfinement`).
public final class Browser: Sendable {
    /// The names looked for on PATH, in order.
    public static let names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
    /// What to tell a user without one.
    public static let installHint = "no Chromium found (looked for \(names.joined(separator: ", ")) on PATH): install it (apt install chromium) or pass --browser PATH"
    /// How long the browser may take to answer its first command.
    public static let startTimeout: Duration = .seconds(30)

    /// The network a browser's pages get.
    public enum Network: Sendable {
        /// None at all where a network namespace can be made (measuring: every request is
        /// answered by dppx through the Fetch domain).
        case none
        /// The machine's (tools that load pages from a local server).
        case machine
    }

    /// Whether a measuring browser gets a network namespace with nothing in it on this machine
    /// (`BrowserConfinement`); where not, a note says so when it starts.
    public static var closesNetworkHere: Bool {
        if case .available = BrowserConfinement.namespaces { return true }
        return false
    }

    /// The flags of every run. No `--hide-scrollbars`: pages are measured with and without
    /// classic scrollbars, which `MeasureScript` turns off per page (`Scrollbars`).
    static func arguments(profile: String, sandbox: Bool, adding extra: [String] = []) -> [String] {
        extra + [
            "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile)",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu",
            "--disable-dev-shm-usage", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--mute-audio",
            "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
            "--disable-backgrounding-occluded-windows",
        ] + (sandbox ? [] : ["--no-sandbox"]) + ["about:blank"]
    }

    /// The shell the browser runs under (`sh -c supervisor dppx-browser PROFILE COMMAND...`),
    /// given the browser's DevTools pipe as descriptors 3 and 4: it starts the browser with
    /// them, keeps no end of the pipe itself (so dppx reads the end of the answers when the
    /// browser ends), waits, and removes the profile, whoever ended the browser.
    static let supervisor = """
        profile=$1; shift
        "$@" &
        exec 3<&- 4>&-
        wait $!
        status=$?
        rm -rf -- "$profile"
        exit $status
        """

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
    /// How it is confined.
    let confinement: BrowserConfinement
    private let process: SpawnedProcess
    /// The group the supervising shell leads, the browser and its helpers in it.
    private let group: NIOLockedValueBox<ProcessGroup?>
    private let profile: TemporaryFolder

    private static let running = NIOLockedValueBox<[ObjectIdentifier: Browser]>([:])
    private static let interruption = NIOLockedValueBox(false)
    private static let noticed = NIOLockedValueBox<Set<String>>([])
    private static let stopping = NIOLock()

    /// Whether `stopAll()` has run: the failures that follow are the interruption's.
    public static var interrupted: Bool { interruption.withLockedValue { $0 } }

    private init(process: SpawnedProcess, profile: TemporaryFolder, confinement: BrowserConfinement) {
        self.process = process
        self.group = NIOLockedValueBox(nil)
        self.profile = profile
        self.confinement = confinement
    }

    /// Starts `executable` and connects to it. `extraArguments` are flags of a caller's own
    /// (the browser tests hide scrollbars, as their pages are laid out without them);
    /// `network` is what its pages may reach. A protection this machine cannot give is named
    /// once on stderr.
    public static func start(executable: String, extraArguments: [String] = [], network: Network = .none) async throws(MeasureError) -> Browser {
        let confinement = BrowserConfinement.here(network: network)
        do {
            let browser = try await launch(executable, extraArguments: extraArguments, confinement: confinement)
            note(confinement.notice)
            return browser
        } catch {
            // Outside a user namespace, a kernel without one for this user and no setuid
            // helper leave Chromium no sandbox to start: it then runs without, said so.
            guard confinement.sandbox, confinement.prefix.isEmpty else { throw error }
            let without = confinement.withoutSandbox(because: "it could not start one here: \(error)")
            let browser = try await launch(executable, extraArguments: extraArguments, confinement: without)
            note(without.notice)
            return browser
        }
    }

    private static func launch(_ executable: String, extraArguments: [String], confinement: BrowserConfinement) async throws(MeasureError) -> Browser {
        let profile: TemporaryFolder
        do { profile = try TemporaryFolder(prefix: "dppx-measure-") } catch {
            throw .browser("could not make its profile folder: \(error)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = profile.path
        let process: SpawnedProcess
        let commands: (read: Int32, write: Int32), answers: (read: Int32, write: Int32), errors: (read: Int32, write: Int32)
        do {
            commands = try SpawnedProcess.pipe()
            answers = try SpawnedProcess.pipe()
            errors = try SpawnedProcess.pipe()
            process = try SpawnedProcess.spawn(
                "/bin/sh", ["-c", supervisor, "dppx-browser", profile.path] + confinement.prefix + [executable]
                    + arguments(profile: profile.path, sandbox: confinement.sandbox, adding: extraArguments),
                environment: environment,
                descriptors: [(0, nil), (1, nil), (2, errors.write), (3, commands.read), (4, answers.write)])
        } catch {
            profile.remove()
            throw .browser("\(executable) did not start: \(error)")
        }
        // dppx keeps its end of each pipe; the browser's ends are its own now.
        for end in [commands.read, answers.write, errors.write] { SpawnedProcess.close(end) }
        let lastWords = LastWords(errors.read)
        let browser = Browser(process: process, profile: profile, confinement: confinement)
        browser.group.withLockedValue { $0 = ProcessGroup(leader: process.id) }
        running.withLockedValue { $0[ObjectIdentifier(browser)] = browser }
        do {
            try await browser.connection.connect(input: answers.read, output: commands.write)
            let answered = try await withTimeout(startTimeout) { try await browser.connection.send("Browser.getVersion") }
            guard answered != nil else {
                throw MeasureError.browser("\(executable) did not answer on its DevTools pipe within \(startTimeout) (its last words: \(lastWords.text))")
            }
        } catch let error as MeasureError {
            await browser.stop()
            if case .browser(let message) = error, !message.contains("last words") {
                throw .browser("\(executable) did not start: \(message) (its last words: \(lastWords.text))")
            }
            throw error
        } catch {
            await browser.stop()
            throw .browser("\(error)")
        }
        return browser
    }

    /// Writes `notice` on stderr, once a process.
    private static func note(_ notice: String?) {
        guard let notice, noticed.withLockedValue({ $0.insert(notice).inserted }) else { return }
        FileHandle.standardError.write(Data("dppx: note: \(notice)\n".utf8))
    }

    /// Whether the browser is still running.
    public var isRunning: Bool { process.isRunning && connection.closedReason == nil }

    /// Closes the browser: politely over the protocol, then by SIGTERM, and removes its profile.
    public func stop() async {
        guard Self.running.withLockedValue({ $0.removeValue(forKey: ObjectIdentifier(self)) }) != nil else { return }
        if process.isRunning, connection.closedReason == nil {
            _ = try? await withTimeout(.seconds(2)) { try await self.connection.send("Browser.close") }
        }
        await connection.close()
        end(waiting: 2)
    }

    /// Ends every browser still running, at once: for a signal handler, before exiting. From
    /// then on `interrupted` is true, and a measurement in progress writes nothing.
    /// A second call (the signal's, and the run that saw its browser go) returns once the
    /// first has ended them all.
    public static func stopAll() {
        stopping.withLock {
            interruption.withLockedValue { $0 = true }
            for browser in running.withLockedValue({ running in defer { running = [:] }; return Array(running.values) }) {
                browser.connection.closeAtOnce()
                browser.end(waiting: 2)
            }
        }
    }

    /// Ends the browser and every process it started (renderers outlive it for a moment, a
    /// renderer stuck in a script's endless loop longer), then removes its profile. The
    /// supervising shell ends by itself once the browser has, after removing the profile:
    /// it is given `waiting` seconds for that.
    private func end(waiting: Double) {
        let deadline = Date().addingTimeInterval(waiting)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        group.withLockedValue { $0 }?.end()
        profile.remove()
    }
}

/// Keeps the last lines Chromium wrote on stderr (for a browser that fails to start), and
/// keeps reading so that it never blocks on a full pipe.
private final class LastWords: Sendable {
    private let lines = NIOLockedValueBox<[String]>([])

    /// Reads `descriptor`, and closes it at its end.
    init(_ descriptor: Int32) {
        let thread = Thread { [self] in
            defer { SpawnedProcess.close(descriptor) }
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                // read(2) itself: FileHandle.availableData traps on EINTR, which a signal
                // arriving while Chromium is quiet gives.
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    self.lines.withLockedValue { $0 = Array(($0 + [line]).suffix(3)) }
                }
            }
        }
        thread.start()
    }

    var text: String { lines.withLockedValue { $0.joined(separator: " / ") } }
}
