@testable import DPPXBuild
import DPPXCore
import DPPXFiles
import DPPXTestSupport
import Foundation
import Testing

/// The queue hands out a build's tasks: within the memory budget, and saying when a core is
/// idle (a quality search's score then takes two threads).
@Suite("The build queue")
struct BuildQueueTests {
    /// A decoded 2x JPEG master and its three density outputs, largest first.
    static func job(_ fixture: BuildFixture) throws -> MasterJob {
        let path = fixture.source("hero@2x.jpg")
        try TestImages.write(path, width: 800, height: 500)
        let status = try FileStatus(path: path)
        let source = SourceFile(relativePath: "hero@2x.jpg", absolutePath: path,
                                name: try #require(MasterName(relativePath: "hero@2x.jpg")),
                                byteCount: status.size, modified: status.modified, inode: status.inode)
        guard case .decoded(let job) = try MasterBuilder(options: fixture.options()).start(source, bytes: AtomicFile.read(path), sourceHash: "hash") else {
            throw TestFailure("a JPEG master decodes into a job")
        }
        return job
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test("a core is idle while fewer tasks run than there are cores: a decode, then outputs, each counted until written")
    func idleCores() throws {
        let fixture = BuildFixture()
        let job = try Self.job(fixture)
        #expect(job.outputs.count == 3)
        let queue = BuildQueue(masterCount: 1, maxOpenMasters: 2, memoryBudget: Int.max / 4)
        #expect(queue.hasIdleCore(cores: 1), "nothing runs yet")
        guard case .master(0) = queue.next() else { Issue.record("the master is decoded first"); return }
        #expect(queue.hasIdleCore(cores: 2) && !queue.hasIdleCore(cores: 1), "one task, the decode, runs")
        queue.opened(0, job)
        #expect(queue.hasIdleCore(cores: 1), "the decode is done")
        guard case .output(_, let first) = queue.next(), case .output(_, let second) = queue.next() else {
            Issue.record("the outputs follow the decode"); return
        }
        #expect(first == 0 && second == 1, "largest first")
        #expect(!queue.hasIdleCore(cores: 2), "two outputs run on two cores")
        #expect(queue.hasIdleCore(cores: 3))
        queue.wrote(job, output: first, lastOfJob: false)
        #expect(queue.hasIdleCore(cores: 2), "one of them is written")
    }

    @Test("an output is handed out only while it fits the budget beside what runs, and always when nothing runs")
    func memoryBudget() throws {
        let fixture = BuildFixture()
        let job = try Self.job(fixture)
        // Room for what the job holds and its largest output, not for a second output beside it.
        let budget = job.heldBytes + job.memoryEstimate(ofOutput: 0)
        let queue = BuildQueue(masterCount: 1, maxOpenMasters: 1, memoryBudget: budget)
        guard case .master(0) = queue.next() else { Issue.record("the master is decoded first"); return }
        queue.opened(0, job)
        guard case .output(_, 0) = queue.next() else { Issue.record("the largest output fits alone"); return }

        let handedOut = DispatchSemaphore(value: 0)
        let taken = LockedBox<Int?>(nil)
        Thread.detachNewThread {
            if case .output(_, let index) = queue.next() { taken.value = index }
            handedOut.signal()
        }
        #expect(handedOut.wait(timeout: .now() + .milliseconds(300)) == .timedOut, "the next output waits: it does not fit beside the first")
        queue.wrote(job, output: 0, lastOfJob: false)
        #expect(handedOut.wait(timeout: .now() + .seconds(10)) == .success, "written, the first makes room")
        #expect(taken.value == 1)

        // A budget nothing fits: each task still runs, alone.
        let tight = BuildQueue(masterCount: 1, maxOpenMasters: 1, memoryBudget: 1)
        guard case .master(0) = tight.next() else { Issue.record("the master is decoded when nothing runs"); return }
        tight.opened(0, try Self.job(BuildFixture()))
        guard case .output = tight.next() else { Issue.record("an output runs when nothing else does"); return }
    }
}

/// A value shared with another thread.
private final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
