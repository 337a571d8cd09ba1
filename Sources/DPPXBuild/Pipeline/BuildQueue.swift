import Foundation

/// The work of one build, handed to its worker threads one task at a time: open and decode a
/// master, or write one output of a master already decoded.
///
/// Outputs of decoded masters come first, oldest master first, and a new master is opened only
/// while fewer than `maxOpenMasters` are open or decoded and unfinished: a decoded 4096x4096
/// master is 50 MB, so this is what bounds a build's memory. A master's outputs spread over
/// every core rather than one core finishing a master alone while the others wait at the end
/// of a build.
final class BuildQueue: @unchecked Sendable {
    enum Task {
        /// The index into the build's ordered list of masters.
        case master(Int)
        case output(MasterBuilder.Job, Int)
    }

    private let condition = NSCondition()
    private let masterCount: Int
    private let maxOpenMasters: Int
    private var nextMaster = 0
    /// Masters taken but not yet decoded: their outputs may still arrive.
    private var opening = 0
    /// Masters taken and not finished (opening, or decoded with outputs left).
    private var open = 0
    private var outputs: [(job: MasterBuilder.Job, index: Int)] = []
    private var nextOutput = 0

    init(masterCount: Int, maxOpenMasters: Int) {
        self.masterCount = masterCount
        self.maxOpenMasters = max(1, maxOpenMasters)
    }

    /// The next task; waits while none is ready but a master being opened may bring some.
    /// Nil when the build's work is all handed out.
    func next() -> Task? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if nextOutput < outputs.count {
                defer { nextOutput += 1 }
                let output = outputs[nextOutput]
                return .output(output.job, output.index)
            }
            if nextMaster < masterCount {
                if open < maxOpenMasters {
                    defer { nextMaster += 1 }
                    opening += 1
                    open += 1
                    return .master(nextMaster)
                }
            } else if opening == 0 {
                return nil
            }
            condition.wait()
        }
    }

    /// A master taken with `next` is open: `job`'s outputs join the queue; nil when the master
    /// needs nothing more (unchanged, failed, or copied), which also finishes it.
    func opened(_ job: MasterBuilder.Job?) {
        condition.lock()
        defer { condition.unlock() }
        opening -= 1
        if job == nil { open -= 1 }
        if let job {
            // Drop handed-out entries so the list does not keep finished jobs alive.
            outputs.removeFirst(nextOutput)
            nextOutput = 0
            outputs += job.outputs.indices.map { (job, $0) }
        }
        condition.broadcast()
    }

    /// The last output of a decoded master is written: another master may open.
    func finished() {
        condition.lock()
        defer { condition.unlock() }
        open -= 1
        condition.broadcast()
    }
}
