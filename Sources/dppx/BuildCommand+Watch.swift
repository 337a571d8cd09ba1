import DPPXBuild
import Foundation

extension BuildCommand {
    /// `--watch`: after the first build, runs `rebuild` each time SRC changes, with the watcher
    /// `dppx serve --watch` uses, until `interrupt` (Ctrl-C or SIGTERM). A failed build is
    /// reported and watching goes on; a build in progress when the signal comes finishes first,
    /// so no temporary file is left behind.
    func watchSource(_ options: BuildOptions, until interrupt: InterruptSignal,
                     rebuild: @escaping @Sendable () async -> Bool) async {
        let watcher = SourceWatcher(root: options.sourceRoot, excluding: options.outputRoot)
        let quiet = quiet
        if !quiet { Terminal.out("watching \(options.sourceRoot) for changes; Ctrl-C stops") }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await watcher.run { changed in
                    if !quiet {
                        let list = changed.prefix(5).joined(separator: ", ") + (changed.count > 5 ? " and \(changed.count - 5) more" : "")
                        Terminal.out("changed: \(list); rebuilding")
                    }
                    _ = await rebuild()
                }
            }
            await interrupt.wait()
            group.cancelAll()
        }
        if !quiet { Terminal.out("stopped watching \(options.sourceRoot)") }
    }
}
