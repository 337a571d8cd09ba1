import DPPXTestSupport
import Foundation
import Testing

/// Headless Firefox (Debian's `firefox-esr`) for browser tests. Firefox has no `--dump-dom`:
/// `--screenshot FILE URL` loads a page, waits for its `load` event and exits, so a page reports
/// what it measured by loading an image from a `ReportCollector` before its `load` event fires.
///
/// The device pixel ratio is a profile preference (`layout.css.devPixelsPerPx` in `user.js`),
/// so each DPR has its own `Profile`, which keeps cookies between loads: the first view of a
/// dppx page sets the `dpr` cookie (`/_dppx/dpr.js`), the second is the one to measure.
/// `DPPX_FIREFOX` overrides the binary.
struct Firefox {
    let executable: String

    /// The installed Firefox, or nil (its tests are then skipped with `skipReason`).
    static let installed: Firefox? = {
        if let configured = ProcessInfo.processInfo.environment["DPPX_FIREFOX"], !configured.isEmpty {
            return Firefox(executable: configured)
        }
        for name in ["firefox-esr", "firefox"] {
            if let path = ExternalProcess.which(name) { return Firefox(executable: path) }
        }
        return nil
    }()

    /// Why Firefox tests do not run here.
    static let skipReason: Comment = "firefox-esr is not installed (scripts/install-deps --test, or set DPPX_FIREFOX): Firefox tests skipped"

    /// A Firefox profile at one device pixel ratio: cookies persist across loads, the HTTP
    /// disk cache is off (each view fetches), first-run pages and background traffic are off.
    final class Profile: @unchecked Sendable {
        let folder = ScratchFolder("dppx-firefox")
        let devicePixelRatio: Double

        /// `extra`: more preferences, each a name and its value as `user.js` writes it (`"\"text\""`, `0`, `false`).
        init(devicePixelRatio: Double, extra: [(String, String)] = []) throws {
            self.devicePixelRatio = devicePixelRatio
            let preferences: [(String, String)] = [
                ("layout.css.devPixelsPerPx", "\"\(devicePixelRatio)\""),
                ("browser.cache.disk.enable", "false"),
                ("browser.shell.checkDefaultBrowser", "false"),
                ("browser.startup.homepage_override.mstone", "\"ignore\""),
                ("datareporting.policy.dataSubmissionEnabled", "false"),
                ("toolkit.telemetry.reportingpolicy.firstRun", "false"),
                ("app.update.enabled", "false"),
                ("extensions.update.enabled", "false"),
                ("network.captive-portal-service.enabled", "false"),
                ("network.connectivity-service.enabled", "false"),
                ("browser.safebrowsing.malware.enabled", "false"),
                ("browser.safebrowsing.phishing.enabled", "false"),
            ] + extra
            let text = preferences.map { "user_pref(\"\($0.0)\", \($0.1));" }.joined(separator: "\n") + "\n"
            try text.write(toFile: folder("user.js"), atomically: true, encoding: .utf8)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// Loads `url` in `profile` until its `load` event (and a screenshot) and exits.
    func load(_ url: String, in profile: Profile, windowSize: (width: Int, height: Int) = (1000, 800), timeout: Double = 90) async throws {
        let screenshot = profile.folder("screenshot.png")
        let result = try await ExternalProcess.run(executable, [
            "--headless", "--no-remote", "--profile", profile.folder.path,
            "--window-size=\(windowSize.width),\(windowSize.height)", "--screenshot", screenshot, url,
        ], environment: ["MOZ_HEADLESS": "1"], timeout: timeout)
        guard result.status == 0 else {
            throw Failure(message: "firefox failed at DPR \(profile.devicePixelRatio) loading \(url): \(result)")
        }
    }
}
