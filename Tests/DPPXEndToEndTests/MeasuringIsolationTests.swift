import DPPXCore
import DPPXMeasure
import DPPXTestSupport
import Foundation
import Testing

/// `dppx measure` against pages written as an attacker would (end to end, real Chromium): a
/// measured page is hostile code. It reaches no network, cannot change what dppx's scripts
/// read, cannot stand in for another page, and neither a dialog nor the browser's end stops
/// the pages after it.
@Suite("Measuring a hostile page (Chromium)", .serialized, .enabled(if: Chromium.installed != nil, Chromium.skipReason))
struct MeasuringIsolationTests {
    /// A site of `pages` (name to HTML), with `img/a.jpg` in its manifest at 400x300.
    static func makeSite(_ pages: [String: String]) throws -> ScratchFolder {
        let site = ScratchFolder("dppx-hostile")
        try FileManager.default.createDirectory(atPath: site("img"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site("tmp"), withIntermediateDirectories: true)
        for (name, html) in pages { try html.write(toFile: site(name), atomically: true, encoding: .utf8) }
        let image = Manifest.Image(source: "img/a.jpg", path: "img/a.jpg", sourceHash: "0", sourceDensity: Density(1),
                                   cssSize: PixelSize(width: 400, height: 300), densityIndependent: false, fluid: true,
                                   skippedDensities: [], variants: [])
        try Data(Manifest(images: [image]).encoded()).write(to: URL(fileURLWithPath: site(Manifest.fileName)))
        return site
    }

    /// A plain page: one image, 200 px wide from 700 px up, else the viewport's width.
    static let plain = """
        <!doctype html><html><head><style>body { margin: 0 } img { width: 100%; display: block }
        @media (min-width: 700px) { img { width: 200px } }</style></head>
        <body><img src="img/a.jpg" alt=""></body></html>
        """

    /// Starts dppx measure in the background, its stdout and stderr in `out.txt` and `err.txt`.
    static func start(_ site: ScratchFolder, _ arguments: [String]) throws -> ChildProcess {
        let chromium = try #require(Chromium.installed).executable
        return try ChildProcess(DPPXExecutable.path, ["measure", site.path] + arguments + ["--browser", chromium],
                                environment: ["TMPDIR": site("tmp")], standardOutput: .file(site("out.txt")), standardError: .file(site("err.txt")))
    }

    /// What a run `start` started wrote: stdout and stderr.
    static func output(_ site: ScratchFolder) -> (stdout: String, stderr: String) {
        ((try? String(contentsOfFile: site("out.txt"), encoding: .utf8)) ?? "", (try? String(contentsOfFile: site("err.txt"), encoding: .utf8)) ?? "")
    }

    static func run(_ site: ScratchFolder, _ arguments: String...) async throws -> ChildProcess.Completed {
        let chromium = try #require(Chromium.installed).executable
        return try await offPool {
            try ChildProcess.run(DPPXExecutable.path, ["measure", site.path] + arguments + ["--browser", chromium], environment: ["TMPDIR": site("tmp")])
        }
    }

    static func layout(_ site: ScratchFolder) throws -> LayoutFile {
        try JSONDecoder().decode(LayoutFile.self, from: Data(contentsOf: URL(fileURLWithPath: site(LayoutFile.fileName))))
    }

    /// The processes whose command line names `site` (the browser's profile is in it).
    static func processes(under site: ScratchFolder) throws -> [(pid: Int32, command: String)] {
        try ChildProcess.run("/usr/bin/pgrep", ["-af", site.path]).stdout.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let pid = Int32(parts[0]), !parts[1].contains("pgrep") else { return nil }
            return (pid, String(parts[1]))
        }
    }

    /// Whether a process is Chromium's browser process: not a helper (`--type=`), not the
    /// shell or `unshare` it runs under.
    static func isBrowser(_ process: (pid: Int32, command: String)) -> Bool {
        process.command.contains("--user-data-dir=") && !process.command.contains("--type=") && !process.command.contains("unshare")
            && !process.command.hasPrefix("/bin/sh")
    }

    @Test("a page that opens alert(), confirm() and prompt() is measured, and so are the pages after it")
    func dialogsAreDismissed() async throws {
        let site = try Self.makeSite([
            "dialogs.html": "<!doctype html><body><script>alert('one'); confirm('two'); prompt('three');</script><img src=\"img/a.jpg\" style=\"width: 120px\"></body>",
            "a.html": Self.plain, "b.html": Self.plain, "c.html": Self.plain,
        ])
        // A dialog left open would hold its page until the timeout: 20 s, so a busy machine
        // measuring the plain pages in time is not what the test decides.
        let result = try await Self.run(site, "--pages", "dialogs.html", "a.html", "b.html", "c.html", "--timeout", "20")
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("measured 4 pages (0 unchanged, 0 failed)"), "\(result)")
        let layout = try Self.layout(site)
        #expect(layout.pages["dialogs.html"]?.images.first?.samples.allSatisfy { $0.width == 120 } == true)
        #expect(["a.html", "b.html", "c.html"].allSatisfy { layout.pages[$0]?.images.count == 1 })
    }

    @Test("when the browser is killed mid-run another is started: the pages left are measured")
    func browserStartedAgain() async throws {
        let hang = "<!doctype html><script>while (true) {}</script>"
        let site = try Self.makeSite(["hang1.html": hang, "hang2.html": hang, "a.html": Self.plain, "b.html": Self.plain])
        // A timeout long enough that on a busy machine the browser is still there once both
        // tabs hold their page (with 3 s the run had ended before the renderers showed up).
        let child = try Self.start(site, ["--pages", "hang1.html", "hang2.html", "a.html", "b.html", "--timeout", "10"])
        // Both tabs hold a hanging page: the browser process (not a helper, not the shell) is killed.
        let deadline = Date().addingTimeInterval(30)
        while try Self.processes(under: site).filter({ $0.command.contains("--type=renderer") }).count < 3, Date() < deadline {
            try await Task.sleep(for: .milliseconds(100))
        }
        try await Task.sleep(for: .milliseconds(500))
        let browser = try #require(try Self.processes(under: site).first(where: Self.isBrowser))
        kill(browser.pid, SIGKILL)
        let ended = try #require(try await offPool { child.wait(timeout: 60) })
        let said = Self.output(site)
        #expect(ended.status == 1, "\(ended) \(said)")
        #expect(said.stdout.contains("measured 2 pages (0 unchanged, 2 failed)"), "\(said)")
        #expect(said.stderr.contains("hang1.html: not measured: it did not load and measure within 10 s"), "\(said)")
        let layout = try Self.layout(site)
        #expect(layout.pages["a.html"]?.images.count == 1 && layout.pages["b.html"]?.images.count == 1, "\(layout.pages.keys.sorted())")
        // The killed browser's shell removes its profile, a moment later on a busy machine.
        let settled = Date().addingTimeInterval(10)
        while try !Self.processes(under: site).isEmpty, Date() < settled { try await Task.sleep(for: .milliseconds(100)) }
        let left = try Self.processes(under: site).map(\.command)
        #expect(left.isEmpty, "\(left)")
    }

    @Test("a page that replaces JSON.stringify, dppx's globals and Set, and forges marks, is measured as the plain page is")
    func scriptsRunOutOfThePagesReach() async throws {
        let hostile = """
            <!doctype html><html><head><style>body { margin: 0 } img { width: 100%; display: block }
            @media (min-width: 700px) { img { width: 200px } }</style></head>
            <body><img src="img/a.jpg" alt=""><image data-dppx-at="1e300" src="img/a.jpg"><script>
            JSON.stringify = () => '[]';
            Array.prototype.map = function () { return []; };
            Set.prototype.add = function () { return this; };
            Object.defineProperty(window, '__dppxLoadedElements', { value: 1e300, writable: false });
            Object.defineProperty(window, '__dppxMeasure', { value: () => '[]', writable: false });
            addEventListener('load', () => {
              const real = document.querySelector('img');
              for (const name of real.getAttributeNames().filter((name) => name.startsWith('data-dppx'))) {
                const forged = real.cloneNode();
                forged.setAttribute(name, '999999');
                forged.style.width = '50px';
                document.body.append(forged);
              }
            });
            </script></body></html>
            """
        let site = try Self.makeSite(["hostile.html": hostile, "plain.html": Self.plain])
        let result = try await Self.run(site, "--pages", "hostile.html", "plain.html")
        #expect(result.status == 0, "\(result)")
        let layout = try Self.layout(site)
        let measured = try #require(layout.pages["hostile.html"])
        let plain = try #require(layout.pages["plain.html"])
        // Its one marked <img> (the <image> carries a name of the page's own), sampled at the
        // plain page's viewports, the breakpoint at 700 px included, with the same boxes.
        #expect(measured.images.count == 1, "\(measured.images)")
        #expect(measured.images.first?.samples.map(\.viewport) == plain.images.first?.samples.map(\.viewport))
        #expect(measured.images.first?.samples.map(\.width) == plain.images.first?.samples.map(\.width))
        #expect(measured.images.first?.samples.contains { $0.viewport == 699 } == true)
        // The body's elements when it loaded: the <img>, the <image> and the script.
        #expect(measured.loadedElements == 3, "\(String(describing: measured.loadedElements))")
    }

    @Test("a page that navigates the page it is shown in to another page's measuring URL is refused and named")
    func standInRefused() async throws {
        let target = SiteResponder.hostURL(ofPage: "b.html", height: ViewportLadder().height)
        let site = try Self.makeSite([
            "a.html": "<!doctype html><body><p>no image here</p><script>parent.location = \(String(reflecting: target));</script></body>",
            "b.html": Self.plain,
        ])
        let result = try await Self.run(site, "--pages", "a.html", "b.html", "--timeout", "10")
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.contains("a.html: not measured: it navigated the page dppx shows it in to \(target) (refused"), "\(result)")
        #expect(result.stdout.contains("measured 1 page (0 unchanged, 1 failed)"), "\(result)")
        let layout = try Self.layout(site)
        #expect(layout.pages["a.html"] == nil)
        #expect(layout.pages["b.html"]?.images.count == 1)
    }

    @Test("a page's WebRTC (STUN over UDP, TURN over TCP), WebSocket, SharedWorker, frame and top navigation reach no local port; the browser keeps its sandbox",
          .enabled(if: Browser.closesNetworkHere, "no network namespace can be made here"))
    func networkIsClosed() async throws {
        let listener = try LocalListener()
        let tcp = "127.0.0.1:\(listener.tcpPort)"
        let page = """
            <!doctype html><body><p>hostile</p><script>
            try { new WebSocket('ws://\(tcp)/socket'); } catch (error) {}
            try {
              const peer = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:\(listener.udpPort)' },
                { urls: 'turn:\(tcp)?transport=tcp', username: 'user', credential: 'secret' }] });
              peer.createDataChannel('data');
              peer.createOffer().then((offer) => peer.setLocalDescription(offer)).catch(() => {});
            } catch (error) {}
            try {
              const code = "try { new WebSocket('ws://\(tcp)/worker'); } catch (error) {} fetch('http://\(tcp)/worker').catch(() => {});";
              new SharedWorker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
            } catch (error) {}
            const frame = document.createElement('iframe');
            frame.src = 'http://\(tcp)/frame';
            document.body.append(frame);
            setTimeout(() => { try { top.location = 'http://\(tcp)/top'; } catch (error) {} }, 300);
            setTimeout(() => { const end = Date.now() + 2000; while (Date.now() < end) {} }, 600);
            </script></body>
            """
        let site = try Self.makeSite(["hostile.html": page])
        let child = try Self.start(site, ["--pages", "hostile.html", "--timeout", "10"])
        // While it runs: no process of the browser runs without the sandbox, and the renderer
        // is in a user namespace of the sandbox's, inside the browser's own, under seccomp.
        let deadline = Date().addingTimeInterval(30)
        var seen: [(pid: Int32, command: String)] = []
        while seen.filter({ $0.command.contains("--type=renderer") }).isEmpty, Date() < deadline {
            seen = try Self.processes(under: site)
            try await Task.sleep(for: .milliseconds(50))
        }
        let browser = seen.first(where: Self.isBrowser)
        let renderer = seen.first { $0.command.contains("--type=renderer") }
        #expect(!seen.contains { $0.command.contains("--no-sandbox") }, "\(seen.map(\.command))")
        if let browser, let renderer {
            let namespace = { (pid: Int32) in try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/ns/user") }
            let mine = namespace(getpid())
            #expect(namespace(browser.pid) != mine && namespace(renderer.pid) != namespace(browser.pid),
                    "user namespaces: dppx \(String(describing: mine)), browser \(String(describing: namespace(browser.pid))), renderer \(String(describing: namespace(renderer.pid)))")
            // Seccomp mode 2: the sandbox's system call filter.
            let status = (try? String(contentsOfFile: "/proc/\(renderer.pid)/status", encoding: .utf8)) ?? ""
            #expect(status.split(separator: "\n").contains { $0.hasPrefix("Seccomp:") && $0.hasSuffix("2") }, "\(status)")
        } else {
            Issue.record("no browser or renderer seen: \(seen.map(\.command))")
        }
        let ended = try #require(try await offPool { child.wait(timeout: 60) })
        try await Task.sleep(for: .milliseconds(300))
        #expect(ended.status == 0 || ended.status == 1, "\(ended)")
        let arrived = listener.arrivals()
        #expect(arrived.datagrams == 0 && arrived.connections == 0,
                "\(arrived.datagrams) datagrams and \(arrived.connections) connections reached the local ports; dppx said: \(Self.output(site))")
    }

    @Test("without unshare on PATH, one line says the browser has this machine's network, and the pages are measured",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/lib/chromium/chromium"), "Debian's Chromium binary (its launcher script needs a PATH)"))
    func noNamespacesSaysSo() async throws {
        let site = try Self.makeSite(["a.html": Self.plain])
        let empty = site("no-tools")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let result = try await offPool {
            try ChildProcess.run(DPPXExecutable.path, ["measure", site.path, "--pages", "a.html", "--browser", "/usr/lib/chromium/chromium"],
                                 environment: ["TMPDIR": site("tmp"), "PATH": empty])
        }
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("measured 1 page (0 unchanged, 0 failed)"), "\(result)")
        let notes = result.stderr.split(separator: "\n").filter { $0.hasPrefix("dppx: note: Chromium runs with this machine's network (no unshare on PATH: install util-linux)") }
        #expect(notes.count == 1, "\(result)")
        if getuid() == 0 { #expect(notes.first?.hasSuffix(", and runs without its sandbox, as root") == true, "\(result)") }
    }
}

/// A UDP socket and a listening TCP socket on 127.0.0.1, on ports the system chose, that only
/// count what reaches them: datagrams received, connections completed (never answered).
final class LocalListener: @unchecked Sendable {
    let udp: Int32, tcp: Int32
    let udpPort: Int, tcpPort: Int

    init() throws {
        func bound(_ type: Int32) throws -> (Int32, Int) {
            #if canImport(Glibc)
            let socketType = Int32(type)
            #else
            let socketType = type
            #endif
            let descriptor = socket(AF_INET, socketType, 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = 0
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let ok = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
                }
            }
            guard descriptor >= 0, ok else { throw POSIXError(.EADDRNOTAVAIL) }
            return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
        }
        #if canImport(Glibc)
        (udp, udpPort) = try bound(Int32(SOCK_DGRAM.rawValue))
        (tcp, tcpPort) = try bound(Int32(SOCK_STREAM.rawValue))
        #else
        (udp, udpPort) = try bound(SOCK_DGRAM)
        (tcp, tcpPort) = try bound(SOCK_STREAM)
        #endif
        listen(tcp, 64)
        for descriptor in [udp, tcp] { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    /// What arrived so far.
    func arrivals() -> (datagrams: Int, connections: Int) {
        var datagrams = 0, connections = 0
        var buffer = [UInt8](repeating: 0, count: 2048)
        while buffer.withUnsafeMutableBytes({ recv(udp, $0.baseAddress, $0.count, 0) }) >= 0 { datagrams += 1 }
        while case let accepted = accept(tcp, nil, nil), accepted >= 0 {
            connections += 1
            close(accepted)
        }
        return (datagrams, connections)
    }

    deinit {
        close(udp)
        close(tcp)
    }
}
