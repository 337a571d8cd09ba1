/// Who hears what a `DevelopmentLoop` does: the terminal of `dppx build --watch`, or the
/// server's session of `dppx serve --watch` (its log, open pages and manifest).
public protocol DevelopmentLoopObserver: Sendable {
    /// A round starts; `changed` lists the masters that changed (empty for the first round).
    func roundStarting(changed: [String]) async
    /// A master was built, failed, or built with a warning.
    func buildEvent(_ event: BuildEvent)
    /// A round ended.
    func roundFinished(_ outcome: SiteBuild.Outcome, changed: [String]) async
}
