import Foundation
import Testing

/// Headless Chromium for browser tests: loads a page at a forced device pixel ratio and returns
/// the DOM after the page's scripts ran, so a page can write what it observed (Resource Timing
/// entries, element boxes) into an element and the test reads it back.
///
/// Each load starts empty (no cache, no cookies, no client-hint memory): in a browser context of
/// its own in one Chromium kept for the test process (`SharedChromium`), or, with browser flags
/// of its own, in a browser launched for it with a fresh profile. `--no-sandbox`: Chromium needs it when run
/// as root in a container. `DPPX_CHROMIUM` overrides the binary.
struct Chromium {
    let executable: String
    /// The browser `dumpDOM` loads pages in.
    let shared: SharedChromium

    init(executable: String) {
        self.executable = executable
        shared = SharedChromium(executable: executable)
    }

    /// The installed Chromium, or nil (browser tests are then skipped with `skipReason`).
    static let installed: Chromium? = {
        if let configured = ProcessInfo.processInfo.environment["DPPX_CHROMIUM"], !configured.isEmpty {
            return Chromium(executable: configured)
        }
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            if let path = ExternalProcess.which(name) { return Chromium(executable: path) }
        }
        return nil
    }()

    /// Why browser tests do not run here.
    static let skipReason: Comment = "chromium is not installed (apt-get install chromium, or set DPPX_CHROMIUM): browser tests skipped"

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Loads `url` at `deviceScaleFactor` and returns the serialised DOM once the page is idle
    /// or `virtualTimeBudget` milliseconds of page time have passed. `root` is how the dump
    /// starts for the document loaded (`<svg` for an SVG opened directly). With
    /// `extraArguments` (browser flags, which a tab cannot change), or where the shared browser
    /// cannot start, it runs in a browser launched for it.
    /// `defaultFontSize` sets the browser's default font size (CSS px) for the load, in the
    /// shared browser only.
    func dumpDOM(of url: String, deviceScaleFactor: Double, windowSize: (width: Int, height: Int) = (1000, 800),
                 virtualTimeBudget: Int = 15_000, extraArguments: [String] = [], timeout: Double = 120,
                 root: String = "<html", defaultFontSize: Int? = nil) async throws -> String {
        if extraArguments.isEmpty,
           let dom = try await shared.dumpDOM(of: url, deviceScaleFactor: deviceScaleFactor, windowSize: windowSize,
                                              virtualTimeBudget: virtualTimeBudget, timeout: timeout, defaultFontSize: defaultFontSize) {
            guard dom.contains(root) else {
                throw Failure(message: "chromium at DPR \(deviceScaleFactor) loading \(url) gave no \(root): \(dom)")
            }
            return dom
        }
        if defaultFontSize != nil {
            throw Failure(message: "chromium: a default font size is set over the DevTools protocol, and the shared browser did not start")
        }
        return try await launchedDumpDOM(of: url, deviceScaleFactor: deviceScaleFactor, windowSize: windowSize,
                                         virtualTimeBudget: virtualTimeBudget, extraArguments: extraArguments, timeout: timeout, root: root)
    }

    /// `dumpDOM` in a browser started for this load alone, by `--dump-dom`.
    func launchedDumpDOM(of url: String, deviceScaleFactor: Double, windowSize: (width: Int, height: Int) = (1000, 800),
                         virtualTimeBudget: Int = 15_000, extraArguments: [String] = [], timeout: Double = 120,
                         root: String = "<html") async throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let arguments = Self.arguments(profile: profile, deviceScaleFactor: deviceScaleFactor, windowSize: windowSize)
            + ["--virtual-time-budget=\(virtualTimeBudget)"] + extraArguments + ["--dump-dom", url]
        let result = try await ExternalProcess.run(executable, arguments, timeout: timeout)
        guard result.status == 0, result.stdout.contains(root) else {
            throw Failure(message: "chromium failed at DPR \(deviceScaleFactor) loading \(url): \(result)")
        }
        return result.stdout
    }

    /// Loads `url` and saves a PNG of the window to `path`: after `stopAfter` milliseconds,
    /// when given (loads still pending are stopped then: the screenshot shows what the page
    /// paints while it waits for them), else once the page is idle.
    func screenshot(of url: String, to path: String, deviceScaleFactor: Double = 1, windowSize: (width: Int, height: Int) = (800, 600),
                    stopAfter: Int? = nil, timeout: Double = 120) async throws {
        if let png = try await shared.screenshot(of: url, deviceScaleFactor: deviceScaleFactor, windowSize: windowSize,
                                                 stopAfter: stopAfter, timeout: timeout) {
            try png.write(to: URL(fileURLWithPath: path))
            return
        }
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("dppx-chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let wait = stopAfter.map { ["--timeout=\($0)"] } ?? ["--virtual-time-budget=15000"]
        let arguments = Self.arguments(profile: profile, deviceScaleFactor: deviceScaleFactor, windowSize: windowSize)
            + wait + ["--screenshot=\(path)", url]
        let result = try await ExternalProcess.run(executable, arguments, timeout: timeout)
        guard result.status == 0, FileManager.default.fileExists(atPath: path) else {
            throw Failure(message: "chromium failed to screenshot \(url): \(result)")
        }
    }

    /// The flags of every run: a fresh profile, no sandbox, nothing in the background.
    private static func arguments(profile: String, deviceScaleFactor: Double, windowSize: (width: Int, height: Int)) -> [String] {
        [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
            "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--mute-audio", "--hide-scrollbars",
            "--user-data-dir=\(profile)",
            "--force-device-scale-factor=\(deviceScaleFactor)",
            "--window-size=\(windowSize.width),\(windowSize.height)",
        ]
    }

    /// The text inside `<TAG id="ID">...</TAG>` of a dumped DOM, with HTML entities decoded.
    static func text(ofElementWithID id: String, in dom: String) -> String? {
        guard let open = dom.range(of: "id=\"\(id)\"") else { return nil }
        guard let start = dom[open.upperBound...].firstIndex(of: ">") else { return nil }
        let rest = dom[dom.index(after: start)...]
        guard let end = rest.range(of: "</") else { return nil }
        return String(rest[..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
    }
}
