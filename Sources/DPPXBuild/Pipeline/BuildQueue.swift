import Foundation

/// The work of one build, handed to its worker threads one task at a time: open and decode a
/// master, or write one output of a master already decoded.
///
/// A master's outputs spread over every core rather than one core finishing a master alone
/// while the others wait at the end of a build. Memory is what limits how much runs at once:
/// a decoded 4096x4096 master is 50 MB and a WebP encode of it 25 to 100 MB, so two workers
/// each on a large WebP would hold twice that. Each task carries an estimate of the memory it
/// needs (`MasterJob`), and a task is handed out only while decoded masters plus
/// running tasks stay within `memoryBudget`; a worker skips to a smaller output that fits, or
/// waits. A task always runs when nothing else is running, so no master is ever too large.
/// Outputs of decoded masters come before new masters, oldest master first, so decoded
/// masters are released early.
final class BuildQueue: @unchecked Sendable {
    enum Task {
        /// The index into the build's ordered list of masters.
        case master(Int)
        case output(MasterJob, Int)
    }

    private let condition = NSCondition()
    private let masterCount: Int
    private let maxOpenMasters: Int
    private let memoryBudget: Int
    private var nextMaster = 0
    /// Masters taken but not yet decoded: their outputs may still arrive.
    private var opening = 0
    /// Masters taken and not finished (opening, or decoded with outputs left).
    private var open = 0
    private var outputs: [(job: MasterJob, index: Int)] = []
    /// Estimated bytes of decoded masters held, and of tasks running (decodes included).
    private var held = 0
    private var running = 0
    private var runningTasks = 0
    /// The most a decode has taken so far; assumed of the next one, whose size is known only
    /// once its header is read.
    private var largestDecode = 0
    /// What each decode under way was assumed to take, by master.
    private var decoding: [Int: Int] = [:]

    init(masterCount: Int, maxOpenMasters: Int, memoryBudget: Int) {
        self.masterCount = masterCount
        self.maxOpenMasters = max(1, maxOpenMasters)
        self.memoryBudget = memoryBudget
    }

    /// The next task; waits while none can run yet but one may. Nil when the build's work is
    /// all handed out.
    func next() -> Task? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            let idle = runningTasks == 0
            if let position = outputs.indices.first(where: { idle || held + running + cost(of: outputs[$0]) <= memoryBudget }) {
                let output = outputs.remove(at: position)
                running += cost(of: output)
                runningTasks += 1
                return .output(output.job, output.index)
            }
            if nextMaster < masterCount {
                // Nothing is known of a decode's size before the first one: one master task at a
                // time until then, and the other workers take that master's outputs rather than
                // decode a second large master beside it (the peak of a build, when they did).
                // Masters that turn out unchanged are quick, so this costs little even when none
                // decodes.
                let firstUnderWay = largestDecode == 0 && opening > 0
                if open < maxOpenMasters && !firstUnderWay && (idle || held + running + largestDecode <= memoryBudget) {
                    defer { nextMaster += 1 }
                    opening += 1
                    open += 1
                    runningTasks += 1
                    running += largestDecode
                    decoding[nextMaster] = largestDecode
                    return .master(nextMaster)
                }
            } else if opening == 0 && outputs.isEmpty {
                return nil
            }
            condition.wait()
        }
    }

    /// A master taken with `next` is open: `job`'s outputs join the queue and what it holds
    /// (`MasterJob.heldBytes`) counts as held; nil when the master needs nothing more
    /// (unchanged, failed, or copied), which also finishes it.
    func opened(_ master: Int, _ job: MasterJob?) {
        condition.lock()
        defer { condition.unlock() }
        opening -= 1
        runningTasks -= 1
        running -= decoding.removeValue(forKey: master) ?? 0
        if let job {
            held += job.heldBytes
            largestDecode = max(largestDecode, job.peakBytes)
            outputs += job.outputs.indices.map { (job, $0) }
        } else {
            open -= 1
        }
        condition.broadcast()
    }

    /// An output handed out by `next` is written; `lastOfJob` when it finished its master,
    /// whose memory is then released.
    func wrote(_ job: MasterJob, output index: Int, lastOfJob: Bool) {
        condition.lock()
        defer { condition.unlock() }
        running -= job.memoryEstimate(ofOutput: index)
        runningTasks -= 1
        if lastOfJob {
            held -= job.heldBytes
            open -= 1
        }
        condition.broadcast()
    }

    /// Whether fewer tasks run than the machine has `cores`.
    func hasIdleCore(cores: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return runningTasks < cores
    }

    private func cost(of output: (job: MasterJob, index: Int)) -> Int {
        output.job.memoryEstimate(ofOutput: output.index)
    }
}
