import DPPXBuild

/// Dev mode (`dppx serve ROOT --watch SRC`): build SRC into ROOT, watch SRC, rebuild what
/// changed, regenerate the stylesheet, and reload open pages.
public struct DevelopmentOptions: Sendable {
    /// The build to run: `sourceRoot` is SRC, `outputRoot` the served ROOT or a folder inside it
    /// (its manifest is found there).
    public var build: BuildOptions
    /// How often SRC is scanned for changes.
    public var pollInterval: Duration
    /// How long SRC must stay unchanged before a rebuild starts, so a file still being copied
    /// or saved in several writes is built once, complete.
    public var settleDelay: Duration
    /// The stylesheet to rewrite after each build (`--css FILE` and its options); nil for none.
    public var stylesheet: StylesheetTarget?
    /// How often an idle live-reload connection gets a comment line, so proxies keep it open and
    /// closed tabs are noticed.
    public var heartbeatInterval: Duration

    public init(build: BuildOptions, pollInterval: Duration = .milliseconds(500), settleDelay: Duration = .milliseconds(300),
                stylesheet: StylesheetTarget? = nil, heartbeatInterval: Duration = .seconds(15)) {
        self.build = build
        self.pollInterval = pollInterval
        self.settleDelay = settleDelay
        self.stylesheet = stylesheet
        self.heartbeatInterval = heartbeatInterval
    }
}
