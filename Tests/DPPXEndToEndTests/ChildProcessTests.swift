import DPPXTestSupport
import Foundation
import Testing

/// `ChildProcess`, which every test that runs a program goes through: what the child is given,
/// and how its end is told.
@Suite("Child processes started and reaped by the tests")
struct ChildProcessTests {
    @Test("the environment gets additions and removals, the directory is the one asked for, stdin is empty")
    func whatTheChildGets() async throws {
        let folder = ScratchFolder("dppx-child")
        let result = try await offPool {
            try ChildProcess.run("/bin/sh", ["-c", #"echo "$DPPX_ADDED|${HOME-unset}|$(pwd)|$(cat | wc -c)"; echo oops >&2; exit 3"#],
                                 environment: ["DPPX_ADDED": "yes", "HOME": nil], in: folder.path)
        }
        let resolved = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().path
        #expect(result.termination == .exited(3))
        #expect(result.stdout == "yes|unset|\(resolved)|0\n", "\(result)")
        #expect(result.stderr == "oops\n")
    }

    @Test("a child killed by a signal is told from one that exits: 128 + the signal, as a shell says")
    func killedBySignal() async throws {
        let child = try ChildProcess("/bin/sleep", ["30"])
        let (runningAtFirst, endedAtFirst, ended) = try await offPool {
            (child.isRunning, child.wait(timeout: 0.05), child.stop(SIGTERM, grace: 10))
        }
        #expect(runningAtFirst && endedAtFirst == nil)
        #expect(ended == .signalled(SIGTERM) && ended.status == 128 + SIGTERM)
        #expect(!child.isRunning && child.termination == ended)
    }

    @Test("a pipe carries what the child prints while it runs, and ends when it exits")
    func pipe() async throws {
        let child = try ChildProcess("/bin/sh", ["-c", "echo ready; sleep 0.2; echo done"], standardOutput: .pipe)
        let output = try #require(child.standardOutput)
        let text = try await offPool { String(decoding: output.readDataToEndOfFile(), as: UTF8.self) }
        #expect(text == "ready\ndone\n")
        #expect(try await offPool { child.wait(timeout: 10) } == .exited(0))
    }

    @Test("a program that cannot be started is an error naming it")
    func missingProgram() {
        #expect {
            try ChildProcess("/nonexistent/dppx-tool", [])
        } throws: { error in
            "\(error)".contains("/nonexistent/dppx-tool")
        }
    }
}
