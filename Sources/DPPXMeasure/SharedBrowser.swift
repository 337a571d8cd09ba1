/// One Chromium for several measurements in a row (checking a rewrite: the untouched pages,
/// then the written ones, round after round), started when the first asks for it and ended by
/// `stop()`: a browser started for each measurement cost a second or so each time.
///
/// Measurements ask one after another, never at once.
public actor SharedBrowser {
    private let executable: @Sendable () throws(MeasureError) -> String
    private var started: Browser?

    /// `executable` finds the browser to start (`Browser.find`), asked only when one is needed.
    public init(executable: @escaping @Sendable () throws(MeasureError) -> String) {
        self.executable = executable
    }

    /// The browser, started on the first call.
    public func browser() async throws(MeasureError) -> Browser {
        if let started { return started }
        let browser = try await Browser.start(executable: try executable())
        started = browser
        return browser
    }

    /// A browser in place of the one whose connection is `ended` (it went away mid-run): the
    /// one started since by another caller, or a new one.
    public func replacing(_ ended: DevToolsConnection) async throws(MeasureError) -> Browser {
        if let started, started.connection !== ended, started.isRunning { return started }
        await started?.stop()
        started = nil
        return try await browser()
    }

    /// Ends the browser, if one was started.
    public func stop() async {
        await started?.stop()
        started = nil
    }
}
