import DPPXBuild
import DPPXCore
import DPPXTestSupport
import Foundation
import Logging
import ServiceLifecycle
import Testing

/// The loop `dppx build --watch` and `dppx serve --watch` both run, driven as they run it: a
/// `ServiceGroup` whose graceful shutdown stops it. Real masters, real libvips.
@Suite("The development loop", .serialized)
struct DevelopmentLoopTests {
    /// Records what the loop reports.
    final class Recorder: DevelopmentLoopObserver, @unchecked Sendable {
        private let lock = NSLock()
        private var startedRounds: [[String]] = []
        private var finishedRounds: [SiteBuild.Outcome] = []
        private var builtMasters: [String] = []

        var started: [[String]] { lock.withLock { startedRounds } }
        var finished: [SiteBuild.Outcome] { lock.withLock { finishedRounds } }
        var built: [String] { lock.withLock { builtMasters } }

        func roundStarting(changed: [String]) async { lock.withLock { startedRounds.append(changed) } }

        func buildEvent(_ event: BuildEvent) {
            if case .built(let source, _) = event { lock.withLock { builtMasters.append(source) } }
        }

        func roundFinished(_ outcome: SiteBuild.Outcome, changed: [String]) async {
            lock.withLock { finishedRounds.append(outcome) }
        }
    }

    /// Polls `condition` for up to five minutes: the loop's rounds resume on Swift's cooperative
    /// pool, which other suites' synchronous libvips work can hold for long stretches.
    static func waitFor(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(300)
        while !condition() {
            guard Date() < deadline else { throw WaitFailure(description: "waited in vain for \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    struct WaitFailure: Error, CustomStringConvertible {
        let description: String
    }

    @Test("a first round builds and writes the stylesheet; each settled change is one more round; a failure is reported and the loop goes on")
    func rounds() async throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("hero@2x.jpg"), width: 200, height: 100)
        let stylesheet = fixture.output("site.css")
        let recorder = Recorder()
        let loop = DevelopmentLoop(round: SiteBuild(build: fixture.options(), stylesheet: StylesheetTarget(path: stylesheet)),
                                   observer: recorder, pollInterval: .milliseconds(50), settleDelay: .milliseconds(50))
        let group = ServiceGroup(services: [loop], logger: Logger(label: "dppx.test"))
        let running = Task { try await group.run() }

        try await Self.waitFor("the first round") { recorder.finished.count == 1 }
        #expect(recorder.started == [[]], "the first round has no changes")
        #expect(recorder.finished[0].succeeded && recorder.finished[0].stylesheet.map { (try? $0.get()) == true } == true)
        #expect(try String(contentsOfFile: stylesheet, encoding: .utf8).contains(".img-hero {"))

        try TestImages.write(fixture.source("new@2x.jpg"), width: 60, height: 40)
        try await Self.waitFor("a round for the new master") { recorder.finished.count == 2 }
        #expect(recorder.started.last == ["new@2x.jpg"])
        #expect(try String(contentsOfFile: stylesheet, encoding: .utf8).contains(".img-new {"))

        try TestImages.writeBytes(Array("not a picture".utf8), to: fixture.source("broken.jpg"))
        try await Self.waitFor("a round for the broken master") { recorder.finished.count == 3 }
        #expect(!recorder.finished[2].succeeded)
        #expect(recorder.finished[2].problems.map(\.file) == ["broken.jpg"], "\(recorder.finished[2].problems)")

        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test("a loop that starts after its caller's first round watches from SRC as it was before that round: a master saved in between is built")
    func watchesFromBeforeTheCallersRound() async throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("hero@2x.jpg"), width: 200, height: 100)
        let round = SiteBuild(build: fixture.options())
        let before = await SourceWatcher(root: fixture.options().sourceRoot, excluding: fixture.options().outputRoot).snapshot()
        _ = await round.run()
        // Saved after the caller's round and before the loop's first look at SRC.
        try TestImages.write(fixture.source("late@2x.jpg"), width: 60, height: 40)
        let recorder = Recorder()
        let loop = DevelopmentLoop(round: round, observer: recorder, buildsFirst: false, since: before,
                                   pollInterval: .milliseconds(50), settleDelay: .milliseconds(50))
        let group = ServiceGroup(services: [loop], logger: Logger(label: "dppx.test"))
        let running = Task { try await group.run() }
        try await Self.waitFor("a round for the master saved in between") { recorder.finished.count == 1 }
        #expect(recorder.started == [["late@2x.jpg"]])
        #expect(recorder.built == ["late@2x.jpg"])
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test("graceful shutdown during a round lets it finish: every master of the change is built, no temporary file stays")
    func shutdownFinishesTheRound() async throws {
        let fixture = BuildFixture()
        try TestImages.write(fixture.source("small@2x.jpg"), width: 40, height: 20)
        let recorder = Recorder()
        let loop = DevelopmentLoop(round: SiteBuild(build: fixture.options(jobs: 1)), observer: recorder,
                                   pollInterval: .milliseconds(50), settleDelay: .milliseconds(50))
        let group = ServiceGroup(services: [loop], logger: Logger(label: "dppx.test"))
        let running = Task { try await group.run() }
        try await Self.waitFor("the first round") { recorder.finished.count == 1 }

        // Written elsewhere and moved in, so the change arrives whole: one round builds all four.
        let staging = ScratchFolder("dppx-staging")
        let names = (0..<4).map { "big\($0)@2x.jpg" }
        for (index, name) in names.enumerated() {
            try TestImages.write(staging(name), width: 2400, height: 1600, seed: UInt64(index))
        }
        for name in names { try FileManager.default.moveItem(atPath: staging(name), toPath: fixture.source(name)) }
        try await Self.waitFor("the round for the change") { recorder.started.count == 2 }
        await group.triggerGracefulShutdown()
        try await running.value

        #expect(recorder.finished.count == 2, "the round in progress ended before the loop did")
        #expect(Set(recorder.built).isSuperset(of: names), "\(recorder.built)")
        let leftovers = fixture.output.files(includingHidden: true).filter { $0.contains(".dppx-tmp-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
