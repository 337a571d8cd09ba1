import DPPXCore
import DPPXFiles
import Foundation

/// What an in-place build writes, recorded before it writes it: a file beside the incremental
/// cache (`<cache>.journal`), one path per line, each line on disk (`SyncedLines`) before the
/// file it names is. In place only the last manifest says which files beside the masters are
/// dppx's, and it is written at the end; a build killed before then (SIGKILL, Ctrl-C, a power
/// cut) leaves variants no manifest lists. The next build reads the journal, so it knows those
/// files as its own (`InPlaceSite`): it writes over them or removes them, where it would
/// otherwise refuse them as the site's own files, and completes the job.
///
/// Once a manifest is written, the journal keeps only the files it wrote that the manifest does
/// not list and that are still there (a failed master's partial outputs); none: it is removed.
final class BuildJournal: @unchecked Sendable {
    let path: String
    /// What earlier builds recorded: dppx's files, whether or not a manifest lists them.
    let earlier: Set<String>
    private let lock = NSLock()
    // Guarded by `lock`.
    private var recorded: Set<String>

    /// The journal of the build whose cache file is `cachePath`.
    init(cachePath: String) {
        path = (cachePath.hasSuffix(".json") ? String(cachePath.dropLast(5)) : cachePath) + ".journal"
        earlier = Set(SyncedLines.read(path).filter(OutputFolder.isInside))
        recorded = earlier
    }

    /// Records `relative` (a path in OUT) before it is written; returns once the record is on
    /// disk. A path already recorded costs nothing.
    func record(_ relative: String) throws(FileError) {
        lock.lock()
        defer { lock.unlock() }
        guard !recorded.contains(relative) else { return }
        try BuildCache.createFolder(of: path)
        try SyncedLines.append([relative], to: path)
        recorded.insert(relative)
    }

    /// After a manifest listing `listed` was written: keeps the recorded paths it does not
    /// list for which `exists` holds, or removes the journal when none is left.
    func settle(listed: Set<String>, exists: (String) -> Bool) throws(FileError) {
        lock.lock()
        defer { lock.unlock() }
        guard !recorded.isEmpty else { return }
        let left = recorded.filter { !listed.contains($0) && exists($0) }
        if left.isEmpty {
            if FileStatus.at(path) != nil { try AtomicFile.remove(path) }
        } else if left != recorded {
            try AtomicFile.write(Array(left.sorted().map { $0 + "\n" }.joined().utf8), to: path)
        }
        recorded = left
    }
}
