import DPPXCore
import DPPXFiles
import DPPXImaging
import Foundation

/// Runs a build's masters on `--jobs` worker threads, each taking its next task from
/// `BuildQueue` (which keeps the memory budget): open a master (reuse it, or start its build),
/// or write one output of a master already decoded. Returns what became of each master.
struct BuildScheduler: Sendable {
    /// What the build holds open: its options, the masters to build, and what decides whether
    /// one is reused (the old cache, the previous manifest, the settings' fingerprint).
    let session: BuildSession

    /// Builds every master of `buildable`, telling each as it is done through `onEvent`.
    func run(onEvent: @escaping @Sendable (BuildEvent) -> Void) -> [SourceFile: BuildState.Outcome] {
        let options = session.options, buildable = session.buildable, unbuilt = session.unbuilt
        let oldCache = session.oldCache
        // Decide per master: reuse (hash and settings unchanged, outputs intact) or build.
        let state = BuildState()
        // Even a single master keeps every worker busy: its outputs are separate tasks.
        let jobs = max(1, options.jobs)
        let cores = ProcessInfo.processInfo.activeProcessorCount
        Vips.threadsPerOperation = max(1, cores / jobs)
        onEvent(.started(total: buildable.count + unbuilt.count, toBuild: buildable.count))
        // Masters failed before any work (unreadable, linked into OUT, colliding) are told as they are found.
        for failure in unbuilt { onEvent(.failed(failure)) }
        for link in session.refusedLinks { onEvent(.warning(link)) }
        // Biggest first: the long jobs start early and the cores finish together.
        let order = buildable.indices.sorted { buildable[$0].byteCount > buildable[$1].byteCount }
        let worker = MasterBuilder(options: options, outputFolder: session.folder)
        let queue = BuildQueue(masterCount: order.count, maxOpenMasters: jobs, memoryBudget: jobs * options.memoryPerJob)
        let built = { @Sendable (source: SourceFile, hash: String, result: MasterBuilder.Result) in
            for warning in result.warnings { onEvent(.warning(warning)) }
            onEvent(.built(source: source.relativePath, variants: result.image.variants.count))
            state.record(.built(result, hash), for: source)
        }
        let failed = { @Sendable (source: SourceFile, failure: FileProblem) in
            onEvent(.failed(failure))
            state.record(.failed(failure), for: source)
        }
        DispatchQueue.concurrentPerform(iterations: jobs) { _ in
            while let task = queue.next() {
                switch task {
                case .master(let index):
                    let source = buildable[order[index]]
                    var job: MasterJob?
                    do throws(FileProblem) {
                        // Read once: the bytes hashed are the bytes built from.
                        var read: (bytes: [UInt8], hash: String)?
                        let hash: String
                        if let known = oldCache?.knownHash(for: source) { hash = known } else {
                            let file = try Self.read(source)
                            read = file
                            hash = file.hash
                        }
                        if let entry = reusableEntry(for: source, hash: hash) {
                            state.record(.unchanged(entry, hash), for: source)
                        } else {
                            let file: (bytes: [UInt8], hash: String)
                            if let read { file = read } else { file = try Self.read(source) }
                            switch try worker.start(source, bytes: file.bytes, sourceHash: file.hash) {
                            case .finished(let result): built(source, file.hash, result)
                            case .decoded(let decoded): job = decoded
                            }
                        }
                    } catch {
                        failed(source, error)
                    }
                    queue.opened(index, job)
                case .output(let job, let index):
                    // A score may take a second thread while a core has no task (the memory budget
                    // holding the other workers back, or the build's last outputs).
                    let last = worker.encode(job, output: index, scoreThreads: { queue.hasIdleCore(cores: cores) ? 2 : 1 })
                    if last {
                        do throws(FileProblem) {
                            built(job.source, job.sourceHash, try worker.finish(job))
                        } catch {
                            failed(job.source, error)
                        }
                    }
                    queue.wrote(job, output: index, lastOfJob: last)
                }
            }
        }
        return state.results
    }

    /// The entry OUT holds for `source`, when it may be reused as it is. Reused only when the
    /// cache vouches for it (another build, a shard or a whole one, may have written it with
    /// other settings since). An entry from before placeholders existed is rebuilt to get one.
    private func reusableEntry(for source: SourceFile, hash: String) -> Manifest.Image? {
        guard let entry = session.previousBySource[source.relativePath], entry.sourceHash == hash,
              session.oldCache?.vouches(for: entry, settings: session.fingerprint,
                                        measured: session.options.plan.measuredWidths[source.relativePath]) == true,
              entry.placeholder != nil,
              entry.variants.allSatisfy({ session.folder.holds($0.path, bytes: $0.bytes) }) else { return nil }
        return entry
    }

    /// A master's bytes, read once, and their SHA-256, computed as they are read.
    static func read(_ source: SourceFile) throws(FileProblem) -> (bytes: [UInt8], hash: String) {
        var hasher = ContentHash()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(source.byteCount)
        do {
            try AtomicFile.read(source.absolutePath, inChunksOf: 1 << 20) { chunk in
                hasher.update(chunk)
                bytes.append(contentsOf: chunk)
            }
        } catch {
            _ = hasher.finish()
            throw MasterOpener.unreadable(source, error)
        }
        return (bytes, hasher.finish())
    }
}

/// The results of one build's worker threads.
final class BuildState: @unchecked Sendable {
    enum Outcome: Sendable {
        case unchanged(Manifest.Image, String)
        case built(MasterBuilder.Result, String)
        case failed(FileProblem)
    }

    private let lock = NSLock()
    private(set) var results: [SourceFile: Outcome] = [:]

    func record(_ outcome: Outcome, for source: SourceFile) {
        lock.withLock { results[source] = outcome }
    }
}
