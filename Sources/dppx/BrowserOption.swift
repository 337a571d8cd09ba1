import ArgumentParser
import DPPXCore
import DPPXFiles
import Foundation

/// `--browser PATH`, else `$DPPX_BROWSER`: the Chromium `measure`, `rewrite` and `build`
/// measure pages with. Never `dppx.toml`'s (`[rewrite] browser` is refused there): which
/// program dppx runs is the user's choice, and a project file comes with a repository.
struct BrowserOption: ParsableArguments {
    @Option(name: SettingRegistry.rewriteBrowser.name(), help: SettingRegistry.rewriteBrowser.argumentHelp)
    var browser: String?

    /// Where the browser was named.
    enum Source: Equatable {
        case flag(String)
        case environment(String)
    }

    /// The flag's browser, else the environment's (an empty variable names none); nil: look on
    /// PATH.
    static func source(flag: String?, environment: [String: String]) -> Source? {
        if let flag { return .flag(flag) }
        if let named = environment[SettingRegistry.browserVariable], !named.isEmpty { return .environment(named) }
        return nil
    }

    var source: Source? { Self.source(flag: browser, environment: ProcessInfo.processInfo.environment) }

    /// The executable named, nil when none is (dppx looks for Chromium on PATH).
    var executable: String? {
        switch source {
        case .flag(let path), .environment(let path): path
        case nil: nil
        }
    }

    func validate() throws {
        // The flag's path is checked where the browser is started, as before; a variable set
        // long ago is named here, so its value is not mistaken for a flag's.
        if case .environment(let path) = source, !FileStatus.isExecutableFile(path) {
            throw ValidationError("\(SettingRegistry.browserVariable)=\(path) (from the environment) is not an executable file; set it to Chromium's executable, or unset it to look for chromium on PATH")
        }
    }
}
